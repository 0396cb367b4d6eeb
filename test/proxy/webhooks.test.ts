// paygate proxy --forward-webhooks-to (issue 27 §1): the proxy receives the upstream's webhooks at POST
// /proxy/webhooks, verifies them (Standard Webhooks), forwards a verified one byte-identical to the integration's
// receiver and answers the upstream with the receiver's status; a forged signature is refused (400, not forwarded,
// webhook.signature), a payload off the contract is a violation (webhook.payload), and the status a webhook
// announces goes through the same state rule as the exchanges' (state.illegal_move).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createConformanceChecker } from '../../src/conformance/index.js';
import type { Violation } from '../../src/conformance/types.js';
import { createProxy } from '../../src/proxy/server.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';
import { signature } from '../../src/webhooks/index.js';
import { useCleanup } from '../helpers/cleanup.js';
import { startReceiver, type Answer, type Receiver } from '../webhooks/receiver.js';

const defer = useCleanup();
const payment = { client_id: 'cust-1', method: 'WT_RUB_C2C', amount: '500.00', currency: 'RUB' };

interface Rig {
  sb: TestSandbox;
  url: string;
  adminToken: string;
  hooks: Receiver;
  violations: Violation[];
  secret: string;
  /** What the sandbox sent to the proxy: body and webhook-* headers. */
  sent: { body: string; headers: Record<string, string> }[];
}

/**
 * A sandbox upstream whose webhooks are delivered to the proxy's receiver (its answer is the sandbox's), a receiver
 * behind the proxy answering `answer`, and the proxy with the sandbox's secret (none with `withSecret` false). Only
 * with `upstreamHooks` does the sandbox deliver to the proxy (the other tests post crafted deliveries alone).
 */
async function rig(
  answer: () => Answer = () => ({ status: 204 }),
  { withSecret = true, upstreamHooks = false } = {},
): Promise<Rig> {
  let hookUrl = '';
  const sent: Rig['sent'] = [];
  const sb = await startSandbox({
    forwardWebhooksTo: async (req: Request) => {
      if (!upstreamHooks) return new Response(null, { status: 204 });
      const body = Buffer.from(await req.arrayBuffer());
      const headers = Object.fromEntries([...req.headers].filter(([k]) => k.startsWith('webhook-')));
      sent.push({ body: body.toString('utf8'), headers });
      return fetch(hookUrl, { method: 'POST', headers: req.headers, body });
    },
  });
  defer(() => sb.close());
  const hooks = await startReceiver(answer);
  defer(() => hooks.close());
  const violations: Violation[] = [];
  const proxy = createProxy({
    upstream: new URL(sb.baseUrl),
    checker: createConformanceChecker(),
    webhooks: { forwardTo: new URL(hooks.url), ...(withSecret ? { secret: sb.webhookSecret } : {}) },
    onViolation: (v) => violations.push(v),
  });
  const { url } = await proxy.listen({ port: 0 });
  defer(() => proxy.close());
  hookUrl = `${url}/proxy/webhooks`;
  return { sb, url, adminToken: proxy.adminToken, hooks, violations, secret: sb.webhookSecret, sent };
}

/** POST a delivery to the proxy's receiver, signed with `secret` (or with `sig` as given). */
function deliver(r: Rig, body: string, opts: { id?: string; secret?: string; sig?: string } = {}) {
  const id = opts.id ?? (JSON.parse(body) as { id: string }).id;
  const ts = Math.floor(Date.now() / 1000);
  const sig = opts.sig ?? signature(opts.secret ?? r.secret, id, ts, body);
  return fetch(`${r.url}/proxy/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': sig,
    },
    body,
  });
}

async function createThroughProxy(r: Rig): Promise<Record<string, unknown>> {
  const res = await fetch(`${r.url}/v1/payment`, {
    method: 'POST',
    headers: { 'x-api-key': r.sb.keys.default, 'content-type': 'application/json' },
    body: JSON.stringify({ ...payment, merchant_operation_id: `m-${randomBytes(4).toString('hex')}` }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** An event for `op` entering `status`, as the sandbox shapes it. */
const eventOf = (op: Record<string, unknown>, status: string, n: number, at = new Date()) =>
  JSON.stringify({
    id: `evt_${String(op.operation_id)}_${n}`,
    type: `operation.${status}`,
    created_at: at.toISOString(),
    data: {
      operation: {
        ...op,
        status,
        ...(status === 'completed' ? { actual_amount: op.expected_amount } : {}),
        receipts: [],
        receipt_evidence_status: ['completed', 'cancelled', 'rejected'].includes(status) ? 'unavailable' : 'not_ready',
      },
    },
  });

describe('paygate proxy: the upstream webhooks', () => {
  it('forwards a verified delivery byte-identical; the stock standardwebhooks verifier accepts it', async () => {
    const r = await rig(undefined, { upstreamHooks: true });
    const created = await createThroughProxy(r);
    await r.sb.pay(created.operation_id as string);
    await r.sb.sandbox.webhooks.idle();
    const sent = r.sb.webhooks.events();
    expect(sent.map((e) => e.type)).toEqual(['operation.pending', 'operation.completed']);
    expect(r.hooks.received).toHaveLength(2);
    expect(r.sent).toHaveLength(2);
    r.hooks.received.forEach((got, i) => {
      expect(got.body).toBe(r.sent[i]!.body);
      for (const [name, value] of Object.entries(r.sent[i]!.headers)) expect(got.headers[name]).toBe(value);
    });
    const stock = new Webhook(r.secret);
    for (const got of r.hooks.received) {
      const event = stock.verify(got.body, got.headers as Record<string, string>) as { id: string };
      expect(got.headers['webhook-id']).toBe(event.id);
    }
    const completed = JSON.parse(r.hooks.received[1]!.body) as {
      type: string;
      data: { operation: { status: string } };
    };
    expect(completed.type).toBe('operation.completed');
    expect(r.violations).toEqual([]);
  });

  it('puts the status a webhook announces on the support timeline; a refused or out-of-order one only logged', async () => {
    const r = await rig(undefined, { upstreamHooks: true });
    const created = await createThroughProxy(r);
    const id = created.operation_id as string;
    await r.sb.sandbox.webhooks.idle();
    await r.sb.pay(id);
    await r.sb.sandbox.webhooks.idle();
    const stale = eventOf(created, 'pending', 0, new Date(Date.now() - 60_000));
    expect((await deliver(r, stale)).status).toBe(204);
    const forged = `whsec_${randomBytes(24).toString('base64')}`;
    expect((await deliver(r, eventOf(created, 'pending', 3), { secret: forged })).status).toBe(400);
    const headers = { 'x-admin-token': r.adminToken };
    const shown = (await (await fetch(`${r.url}/sandbox/operations/${id}`, { headers })).json()) as {
      operation: { status: string };
      history: { from: string | null; to: string; cause: string }[];
    };
    expect(shown.operation.status).toBe('completed');
    const moves = shown.history.filter((h) => h.from !== h.to).map((h) => [h.from, h.to, h.cause]);
    expect(moves).toEqual([
      [null, 'pending', 'create answered (exchange #1)'],
      ['pending', 'completed', expect.stringMatching(/^announced by webhook \(exchange #\d+\)$/)],
    ]);
    expect(shown.history.some((h) => h.cause.startsWith('violation webhook.signature'))).toBe(true);
    const logs = (await (await fetch(`${r.url}/sandbox/logs`, { headers })).json()) as {
      requests: { path: string; status: number }[];
    };
    expect(logs.requests.filter((l) => l.path === '/proxy/webhooks').map((l) => l.status)).toEqual([
      400, 204, 204, 204,
    ]); // newest first;
  });

  it("passes the bytes and webhook-* headers on unchanged, and the receiver's 500 back to the sender", async () => {
    const r = await rig(() => ({ status: 500 }));
    const created = await createThroughProxy(r);
    const body = `${eventOf(created, 'pending', 0)}\n`;
    const res = await deliver(r, body);
    expect(res.status).toBe(500);
    const got = r.hooks.received[0]!;
    expect(got.body).toBe(body);
    expect(got.headers['webhook-id']).toBe(`evt_${String(created.operation_id)}_0`);
    expect(r.violations.filter((v) => v.rule.startsWith('webhook.'))).toEqual([]);
  });

  it('refuses a forged signature: 400 to the sender, not forwarded, webhook.signature reported', async () => {
    const r = await rig();
    const created = await createThroughProxy(r);
    const forged = `whsec_${randomBytes(24).toString('base64')}`;
    const res = await deliver(r, eventOf(created, 'completed', 1), { secret: forged });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/signature/);
    expect(r.hooks.received).toHaveLength(0);
    expect(r.violations.map((v) => v.rule)).toEqual(['webhook.signature']);
    expect(r.violations[0]).toMatchObject({ section: '§6', operationId: created.operation_id });
  });

  it('reports a payload missing a field (webhook.payload) and still forwards it', async () => {
    const r = await rig();
    const created = await createThroughProxy(r);
    const event = JSON.parse(eventOf(created, 'pending', 0)) as Record<string, unknown>;
    delete event.created_at;
    const res = await deliver(r, JSON.stringify(event));
    expect(res.status).toBe(204);
    expect(r.hooks.received).toHaveLength(1);
    expect(r.violations).toMatchObject([
      { rule: 'webhook.payload', expected: 'expected created_at present', got: 'got created_at absent' },
    ]);
  });

  it('feeds the announced status to the state rule: pending after a completed webhook is an illegal move', async () => {
    const r = await rig();
    const created = await createThroughProxy(r);
    expect((await deliver(r, eventOf(created, 'completed', 1))).status).toBe(204);
    expect(r.violations).toEqual([]);
    // The upstream's state read now says pending again: drift the webhook exposed.
    const res = await fetch(`${r.url}/v1/get_operation_state`, {
      method: 'POST',
      headers: { 'x-api-key': r.sb.keys.default, 'content-type': 'application/json' },
      body: JSON.stringify({ operation_id: created.operation_id }),
    });
    expect(res.status).toBe(200);
    expect(r.violations.map((v) => v.rule)).toEqual(['state.illegal_move']);
    // An announced move the state table forbids is reported on the webhook itself.
    expect((await deliver(r, eventOf(created, 'cancelled', 2))).status).toBe(204);
    expect(r.violations.map((v) => [v.rule, v.endpoint])).toEqual([
      ['state.illegal_move', 'operation.state'],
      ['state.illegal_move', 'webhook operation.cancelled'],
    ]);
  });

  it('takes an older event arriving late as a retry out of order, not as a move back', async () => {
    const r = await rig();
    const created = await createThroughProxy(r);
    const now = Date.now();
    expect((await deliver(r, eventOf(created, 'completed', 1, new Date(now)))).status).toBe(204);
    expect((await deliver(r, eventOf(created, 'pending', 0, new Date(now - 60_000)))).status).toBe(204);
    expect(r.hooks.received).toHaveLength(2);
    expect(r.violations).toEqual([]);
    // A newer one announcing pending is a move back.
    expect((await deliver(r, eventOf(created, 'pending', 2, new Date(now + 1000)))).status).toBe(204);
    expect(r.violations.map((v) => v.rule)).toEqual(['state.illegal_move']);
  });

  it('answers 405 to a GET, 413 to a body over 1 MiB, 502 when the receiver cannot be reached', async () => {
    const r = await rig();
    const get = await fetch(`${r.url}/proxy/webhooks`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = await deliver(r, JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }), { id: 'msg_big' });
    expect(big.status).toBe(413);
    expect(r.hooks.received).toHaveLength(0);
    const dead = await rig();
    await dead.hooks.close();
    const created = await createThroughProxy(dead);
    const res = await deliver(dead, eventOf(created, 'pending', 0));
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toBe('webhook receiver unreachable');
  });

  it('without a secret, forwards and checks deliveries but does not verify them', async () => {
    const r = await rig(undefined, { withSecret: false });
    const created = await createThroughProxy(r);
    const res = await deliver(r, eventOf(created, 'pending', 0), { sig: 'v1,bm90IGEgc2lnbmF0dXJl' });
    expect(res.status).toBe(204);
    expect(r.hooks.received).toHaveLength(1);
    expect(r.violations).toEqual([]);
  });
});
