// Walks every status × command of the documented state table through the public API and the sandbox controls
// only (in-process fetch), and checks each result: the new status, "no change", or the refusal code.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/emulator/index.js';
import type { OperationKind, OperationRecord, Status } from '../../src/domain/operation.js';
import { COMMANDS, STATE_TABLE, type Cell, type Command } from '../../src/domain/state-table.js';
import { readFileSync } from 'node:fs';
import { KEY_A } from '../helpers/harness.js';
import { useSandboxes } from '../helpers/sandbox.js';

const T0 = '2026-01-01T00:00:00Z';
/** A fresh sandbox per cell, closed after it. */
const open = useSandboxes();

let n = 0;
function params(kind: OperationKind, tag = '') {
  n++;
  return {
    merchant_operation_id: `walk-${n}`,
    client_id: `walker${tag}`,
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
    ...(kind === 'payout' ? { number: '2200700000000004' } : {}),
  };
}

const flush = () => new Promise((r) => setImmediate(r));
const ADMIN = 'pg_admin_walk';
const receipt = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));

/** The public API and the sandbox controls, in-process: every command of the walk goes through them. */
function api(sb: Sandbox) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { 'x-api-key': KEY_A },
  ) => {
    const init: RequestInit = {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await sb.fetch(new Request(`http://paygate.local${path}`, init));
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };
  const admin = { 'x-admin-token': ADMIN };
  return {
    call,
    create: (kind: OperationKind, tag = '') =>
      call('POST', kind === 'payment' ? '/v1/payment' : '/v1/payout', params(kind, tag)),
    control: (id: string, action: string, body: unknown = {}) =>
      call('POST', `/sandbox/operations/${id}/${action}`, body),
    advance: (by: number) => call('POST', '/sandbox/clock/advance', { by }, admin),
    upload: async (id: string, file: string) => {
      const form = new FormData();
      form.set('operation_id', id);
      form.set('confirmation_type', 'receipt');
      form.set('receipt', new Blob([receipt(file)], { type: 'application/pdf' }), file);
      const req = new Request('http://paygate.local/v1/confirm_payment', {
        method: 'POST',
        headers: { 'x-api-key': KEY_A },
        body: form,
      });
      const res = await sb.fetch(req);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
  };
}

/** Bring a fresh operation into `status` through the API and controls. */
async function reach(sb: Sandbox, kind: OperationKind, status: Status, command: Command): Promise<OperationRecord> {
  const a = api(sb);
  if (status === 'admitting') {
    const p = params(
      kind,
      command === 'accept_timeout' ? '+timeout' : command === 'accept_receipt' ? '+slow+receipt' : '+slow',
    );
    void a.call('POST', kind === 'payment' ? '/v1/payment' : '/v1/payout', p);
    for (let i = 0; i < 20 && !sb.service.state.operationByMoid('shop_a', p.merchant_operation_id); i++) await flush();
    return sb.service.state.operationByMoid('shop_a', p.merchant_operation_id)!;
  }
  const tag =
    status === 'awaiting_confirmation' || status === 'manual_check'
      ? '+receipt'
      : status === 'rejected'
        ? '+reject'
        : '';
  const created = await a.create(kind, tag);
  const id = created.body.operation_id as string;
  if (status === 'manual_check') await a.upload(id, 'fake-photoshop.pdf');
  if (status === 'completed')
    await (kind === 'payment' ? a.control(id, 'pay') : a.control(id, 'settle', { outcome: 'completed' }));
  if (status === 'cancelled') await a.call('POST', '/v1/cancel_operation', { operation_id: id });
  const op = sb.service.state.operation(id)!;
  expect(op.status).toBe(status);
  return op;
}

/** Run one command through the API or the controls; returns the error code of a refusal, if any. */
async function run(sb: Sandbox, op: OperationRecord, command: Command): Promise<string | undefined> {
  const a = api(sb);
  const code = (r: { status: number; body: Record<string, unknown> }) =>
    r.status >= 400 ? (r.body.code as string) : undefined;
  switch (command) {
    case 'accept':
    case 'accept_receipt':
      if (op.status === 'admitting') await a.advance(10_000);
      return undefined;
    case 'accept_timeout':
      if (op.status === 'admitting') await a.advance(15_000);
      return undefined;
    case 'expire':
      if (op.expires_at) await a.advance(Date.parse(op.expires_at) - sb.clock.now());
      return undefined;
    case 'cancel':
      return code(
        await a.call('POST', '/v1/cancel_operation', {
          merchant_operation_id: op.merchant_operation_id,
          reason: 'walk',
        }),
      );
    case 'cancel_by_id':
      return code(await a.call('POST', '/v1/cancel_operation', { operation_id: op.id, reason: 'walk' }));
    case 'pay':
      return code(await a.control(op.id, 'pay'));
    case 'receipt_ok':
      return code(await a.upload(op.id, 'ok-1500.pdf'));
    case 'receipt_suspicious':
      return code(await a.upload(op.id, 'mismatch-1499.pdf'));
    case 'approve':
    case 'decline':
      return code(await a.control(op.id, 'review', { decision: command }));
    case 'settle_completed':
    case 'settle_failed':
      return code(
        await a.control(op.id, 'settle', { outcome: command === 'settle_completed' ? 'completed' : 'failed' }),
      );
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
    const sb = (await open({ frozenClock: true, startTime: T0, adminToken: ADMIN })).sandbox;
    const op = await reach(sb, kind, status, command);
    const before = JSON.stringify(sb.service.state.operation(op.id));
    const postingsBefore = sb.service.state.postings.size;
    const error = await run(sb, op, command);
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
