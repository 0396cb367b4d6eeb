// Walks every status × command of the documented state table through the sandbox service and its clock,
// and checks each result: the new status, "no change", or the refusal code.
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/emulator/index.js';
import type { OperationKind, OperationRecord, Status } from '../../src/domain/operation.js';
import { COMMANDS, STATE_TABLE, type Cell, type Command } from '../../src/domain/state-table.js';
import { DomainError } from '../../src/domain/errors.js';

const T0 = '2026-01-01T00:00:00Z';
const open: Sandbox[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

let n = 0;
function params(kind: OperationKind, tag = '') {
  n++;
  return { merchant_operation_id: `walk-${n}`, client_id: `walker${tag}`, method: 'WT_RUB_C2C', amount: '1500.00', currency: 'RUB', ...(kind === 'payout' ? { number: '2200700000000004' } : {}) };
}

const flush = () => new Promise((r) => setImmediate(r));

/** Bring a fresh operation into `status` through the service (the same paths the API and controls use). */
async function reach(sb: Sandbox, kind: OperationKind, status: Status, command: Command): Promise<OperationRecord> {
  const s = sb.service;
  if (status === 'admitting') {
    const p = params(kind, command === 'accept_timeout' ? '+timeout' : '+slow');
    void s.create('shop_a', kind, p).catch(() => undefined);
    await flush();
    return s.state.operationByMoid('shop_a', p.merchant_operation_id)!;
  }
  const tag = status === 'awaiting_confirmation' || status === 'manual_check' ? '+receipt' : status === 'rejected' ? '+reject' : '';
  let op: OperationRecord = await s.create('shop_a', kind, params(kind, tag));
  if (status === 'manual_check') op = await s.uploadReceipt('shop_a', op.id, file(), async () => ({ to: 'manual_check', reason: 'potential_fake', rule: 'test' }));
  if (status === 'completed') op = kind === 'payment' ? await s.pay('shop_a', { operation_id: op.id }) : await s.settle('shop_a', { operation_id: op.id }, 'completed');
  if (status === 'cancelled') op = (await s.cancel('shop_a', { operation_id: op.id }, '')).op;
  expect(op.status).toBe(status);
  return op;
}

const file = () => ({ bytes: new Uint8Array([1, 2, 3]), filename: 'r.pdf', contentType: 'application/pdf' });

async function run(sb: Sandbox, op: OperationRecord, command: Command): Promise<void> {
  const s = sb.service;
  const byId = { operation_id: op.id };
  switch (command) {
    case 'accept':
      if (op.status === 'admitting') await sb.clock.advance(10_000);
      return;
    case 'accept_timeout':
      if (op.status === 'admitting') await sb.clock.advance(15_000);
      return;
    case 'expire':
      if (op.expires_at) await sb.clock.advance(Date.parse(op.expires_at) - sb.clock.now());
      else if (op.status === 'admitting') await s.store.sync();
      return;
    case 'cancel':
      await s.cancel('shop_a', { merchant_operation_id: op.merchant_operation_id }, 'walk');
      return;
    case 'cancel_by_id':
      await s.cancel('shop_a', byId, 'walk');
      return;
    case 'pay':
      await s.pay('shop_a', byId);
      return;
    case 'receipt_ok':
      await s.uploadReceipt('shop_a', op.id, file(), async (amount) => ({ to: 'completed', amount, rule: 'test' }));
      return;
    case 'receipt_suspicious':
      await s.uploadReceipt('shop_a', op.id, file(), async () => ({ to: 'manual_check', reason: null, rule: 'test' }));
      return;
    case 'approve':
    case 'decline':
      await s.review('shop_a', byId, command);
      return;
    case 'settle_completed':
    case 'settle_failed':
      await s.settle('shop_a', byId, command === 'settle_completed' ? 'completed' : 'failed');
      return;
  }
}

const cells: [OperationKind, Status, Command, Cell][] = [];
for (const kind of ['payment', 'payout'] as const) {
  for (const [status, row] of Object.entries(STATE_TABLE[kind])) {
    for (const command of COMMANDS) cells.push([kind, status as Status, command, row![command]]);
  }
}

describe('state table', () => {
  it('covers every status of both types and every command', () => {
    expect(Object.keys(STATE_TABLE.payment)).toHaveLength(7);
    expect(Object.keys(STATE_TABLE.payout)).toHaveLength(4);
    expect(cells).toHaveLength(11 * COMMANDS.length);
  });

  it.each(cells)('%s %s × %s → %s', async (kind, status, command, expected) => {
    const sb = await createSandbox({ frozenClock: true, startTime: T0 });
    open.push(sb);
    const op = await reach(sb, kind, status, command);
    const before = JSON.stringify(sb.service.state.operation(op.id));
    const postingsBefore = sb.service.state.postings.size;
    let error: string | undefined;
    try {
      await run(sb, op, command);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      error = e.code;
    }
    await flush();
    const after = sb.service.state.operation(op.id)!;
    if (expected.startsWith('!')) {
      expect(error).toBe(expected.slice(1));
      expect(JSON.stringify(after)).toBe(before);
      expect(sb.service.state.postings.size).toBe(postingsBefore);
    } else if (expected === '=') {
      expect(error).toBeUndefined();
      expect(JSON.stringify(after)).toBe(before);
    } else {
      expect(error).toBeUndefined();
      expect(after.status).toBe(expected);
      expect(after.history.at(-1)!.to).toBe(expected);
    }
  });
});
