// `paygate verify` as a library (src/verify) against an in-process sandbox: every rule passes; it stays within the
// caps; it cancels what it created and names nothing else (an operation created before it with the same key is
// untouched); a gateway that cannot be reached is an UnreachableError.
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/client/wire.js';
import { RULES } from '../../src/conformance/index.js';
import { VERIFY_RULES } from '../../src/conformance/rules/verify.js';
import type { Sandbox } from '../../src/emulator/index.js';
import {
  InterruptedError,
  runVerify,
  UnreachableError,
  VERIFIABLE_RULES,
  type VerifyOptions,
} from '../../src/verify/index.js';
import { KEY_A, KEY_B } from '../helpers/harness.js';
import { useSandbox, type SandboxUnderTest } from '../helpers/sandbox.js';
import { sandboxTransport } from './transport.js';

async function statusOf(h: SandboxUnderTest, operationId: string): Promise<unknown> {
  const r = await h.call('POST', '/v1/get_operation_state', { body: { operation_id: operationId } });
  return r.body.status;
}

const options = (sandbox: Sandbox, o: Partial<VerifyOptions> = {}): VerifyOptions => ({
  baseUrl: 'http://gateway.local',
  transport: sandboxTransport(sandbox),
  apiKey: KEY_A,
  secondKey: KEY_B,
  ...o,
});

describe('paygate verify against the sandbox', () => {
  const h = useSandbox();

  it('passes every rule of the catalogue, skips nothing with a second key, and cancels every payment it created', async () => {
    const r = await runVerify(options(h.sandbox));
    expect(r.violations).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.passed).toBe(true);
    expect(r.rules.map((x) => x.id)).toEqual(VERIFIABLE_RULES.map((x) => x.id));
    expect(r.rules.some((x) => x.id.startsWith('webhook.'))).toBe(false); // it receives no webhooks
    expect(r.rules.every((x) => x.result === 'passed')).toBe(true);
    expect(r.created.length).toBeGreaterThanOrEqual(2);
    for (const c of r.created) expect(await statusOf(h, c.operationId), c.operationId).toBe('cancelled');
  });

  it('without --second-key its own isolation rule is skipped, with the reason', async () => {
    const r = await runVerify(options(h.sandbox, { secondKey: undefined }));
    expect(r.passed).toBe(true);
    expect(r.rules.find((x) => x.id === 'isolation.cross_shop')?.result).toBe('skipped');
    expect(r.skipped).toEqual([
      {
        check: 'cross-shop 404s',
        reason: 'no --second-key (the key of another shop) was given',
        rules: ['isolation.cross_shop'],
      },
    ]);
  });

  it('charges every request that could create to the caps and never goes past them', async () => {
    const r = await runVerify(options(h.sandbox, { maxCreates: 2, maxAmount: '150.00' }));
    expect(r.caps.creates).toBeLessThanOrEqual(2);
    expect(Number(r.caps.amount)).toBeLessThanOrEqual(150);
    expect(r.created.length).toBeLessThanOrEqual(2);
    expect(r.skipped.length).toBeGreaterThan(0);
    expect(r.skipped.every((s) => s.reason.includes('caps'))).toBe(true);
    // What the caps kept from being checked is skipped, not passed.
    expect(r.rules.find((x) => x.id === 'idempotency.replay')?.result).toBe('skipped');
    expect(r.rules.find((x) => x.id === 'idempotency.conflict')?.result).toBe('skipped');
    expect(r.passed).toBe(true);
  });

  it('never names an operation it did not create: one made before with the same key is untouched', async () => {
    const theirs = await h.client.payments.create({
      merchant_operation_id: 'someone-else-1',
      client_id: 'alice',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    const bodies: string[] = [];
    const r = await runVerify(options(h.sandbox, { transport: sandboxTransport(h.sandbox, bodies) }));
    expect(r.passed).toBe(true);
    expect(bodies.filter((b) => b.includes(theirs.operation_id) || b.includes('someone-else-1'))).toEqual([]);
    expect(await statusOf(h, theirs.operation_id)).toBe('pending');
    expect(r.created.map((c) => c.operationId)).not.toContain(theirs.operation_id);
  });

  it('a gateway that does not answer is an UnreachableError, after one more try', async () => {
    let tries = 0;
    const refused: Transport = async () => {
      tries++;
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    };
    await expect(runVerify(options(h.sandbox, { transport: refused }))).rejects.toThrow(UnreachableError);
    expect(tries).toBe(2);
  });

  it('stopped after its first payment (Ctrl+C), it sends nothing more but the cancel of that payment', async () => {
    const stop = new AbortController();
    const inner = sandboxTransport(h.sandbox);
    const after: string[] = [];
    const transport: Transport = async (req) => {
      if (stop.signal.aborted) after.push(`${req.method} ${new URL(req.url).pathname} ${String(req.body)}`);
      const res = await inner(req);
      if (new URL(req.url).pathname === '/v1/payment' && res.status === 200) stop.abort();
      return res;
    };
    await expect(runVerify(options(h.sandbox, { transport, signal: stop.signal }))).rejects.toThrow(InterruptedError);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/^POST \/v1\/cancel_operation \{"operation_id":"[0-9a-f-]{36}"\}$/);
    const created = await h.admin.sandbox.operations.list();
    expect(created.total).toBe(1);
    expect(created.operations[0]?.status).toBe('cancelled');
  });

  it('a create whose answer is lost is sent again, finds the same payment, and that payment is cancelled', async () => {
    await h.admin.sandbox.faults.add({ endpoint: 'payment.create', drop_response_after_commit: true, count: 1 });
    const r = await runVerify(options(h.sandbox));
    expect(r.violations).toEqual([]);
    const [fault] = await h.admin.sandbox.faults.list().then((l) => l.faults);
    expect(fault?.fired).toBe(1);
    const created = await h.admin.sandbox.operations.list();
    expect(created.total).toBe(r.created.length);
    for (const c of r.created) expect(await statusOf(h, c.operationId)).toBe('cancelled');
  });

  it('owns the rules only it can check, in the catalogue', () => {
    for (const r of VERIFY_RULES) expect(RULES).toContainEqual(r);
  });
});
