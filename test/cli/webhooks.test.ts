// `paygate webhooks listen` and `paygate sandbox webhooks …` end to end: the CLI as subprocesses against a sandbox
// started in this process on a frozen clock. Listeners verify (or fail to verify) the sandbox's signatures, print one
// JSON line per event (or a readable line), forward the original body and webhook-* headers; the control commands
// print secrets once (add, rotate-secret) and masked otherwise.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { useLiveSandbox } from './live-sandbox.js';
import { BIN, ROOT, deadPort, fakeServer, runCli, type CliResult, type FakeServer } from './run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_webhooks_test';
const WRONG_SECRET = `whsec_${Buffer.from('not the sandbox secret, 32 bytes').toString('base64')}`;
const SECRET_RE = /whsec_[A-Za-z0-9+/=]+/;

/** A `paygate webhooks listen` child; `line(pred)` waits for a stdout line matching it (no sleeping). */
class Listener {
  readonly lines: string[] = [];
  stderr = '';
  readonly #child: ChildProcessWithoutNullStreams;
  #waiters: { pred: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  #buf = '';
  readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') env[k] = v;
    env.NO_COLOR = '1';
    this.#child = spawn(process.execPath, [BIN, 'webhooks', 'listen', ...args], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.#child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.#buf += d;
      let i: number;
      while ((i = this.#buf.indexOf('\n')) >= 0) {
        const l = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 1);
        this.lines.push(l);
        this.#waiters = this.#waiters.filter((w) => (w.pred(l) ? (w.resolve(l), false) : true));
      }
    });
    this.exited = new Promise((r) => this.#child.once('close', (code) => r(code)));
  }

  line(pred: (l: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
    const seen = this.lines.find(pred);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line with ${what}; stdout:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`)),
        timeoutMs,
      );
      this.#waiters.push({ pred, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  }

  /** The next JSON line (after the listening one) for which `pred` holds. */
  async json(pred: (o: Record<string, any>) => boolean, what: string): Promise<Record<string, any>> {
    const l = await this.line((s) => {
      try {
        return pred(JSON.parse(s) as Record<string, any>);
      } catch {
        return false;
      }
    }, what);
    return JSON.parse(l) as Record<string, any>;
  }

  async stop(): Promise<number | null> {
    this.#child.kill('SIGTERM');
    return this.exited;
  }
}

const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_a',
});
let baseUrl: string;
/** Shop A's key; no admin token. */
let env: Record<string, string>;
const listeners: Listener[] = [];
let fake: FakeServer;

beforeAll(async () => {
  baseUrl = live.h.baseUrl;
  const { PAYGATE_ADMIN_TOKEN: _admin, ...withoutAdmin } = live.env;
  env = withoutAdmin;
  fake = await fakeServer(() => ({ status: 200, body: { ok: true } }));
});

afterAll(async () => {
  for (const l of listeners) await l.stop();
  await fake?.close();
});

function ok(r: CliResult): string {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

function json<T = Record<string, any>>(r: CliResult): T {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

async function api(method: string, path: string): Promise<unknown> {
  const res = await fetch(baseUrl + path, { method, headers: { 'x-api-key': env.PAYGATE_API_KEY! } });
  return res.json();
}

async function createPayment(clientId: string): Promise<string> {
  const r = await runCli(
    [
      'payment',
      'create',
      '--method',
      'WT_RUB_C2C',
      '--amount',
      '1500.00',
      '--currency',
      'RUB',
      '--client-id',
      clientId,
      '--json',
    ],
    { env },
  );
  return json<{ operation_id: string }>(r).operation_id;
}

async function start(args: string[]): Promise<{ listener: Listener; url: string }> {
  const listener = new Listener(args);
  listeners.push(listener);
  const first = await listener.line(() => true, 'the first line');
  if (args.includes('--json')) {
    const { listening } = JSON.parse(first) as { listening: string };
    return { listener, url: listening };
  }
  const url = /Listening for webhooks on (\S+)/.exec(first)?.[1];
  expect(url, first).toBeTruthy();
  return { listener, url: url! };
}

describe('paygate webhooks listen + paygate sandbox webhooks', () => {
  let secret1: string;
  let id1: string;
  let l1: Listener;
  let l2: Listener;
  let l3: Listener;
  let secret2: string;
  let opId: string;

  it('add prints the secret once; listeners verify, flag invalid signatures and forward', async () => {
    // Listener 1, with the secret the sandbox gives its URL: the port is chosen first, then registered.
    const port = await deadPort();
    const url1 = `http://127.0.0.1:${port}/webhooks`;
    const added = ok(await runCli(['sandbox', 'webhooks', 'add', url1], { env }));
    expect(added).toContain('(shown once)');
    secret1 = SECRET_RE.exec(added)![0];
    id1 = /^id\s+(\S+)/m.exec(added)![1]!;
    const s1 = await start(['--port', String(port), '--json', '--secret', secret1]);
    l1 = s1.listener;
    expect(s1.url).toBe(url1);

    // Listener 2: a wrong secret, --json, forwarding to a fake app.
    const s2 = await start([
      '--port',
      '0',
      '--json',
      '--secret',
      WRONG_SECRET,
      '--forward-to',
      `${fake.baseUrl}/app/hooks`,
    ]);
    l2 = s2.listener;
    const added2 = json<{ id: string; secret: string; url: string }>(
      await runCli(['sandbox', 'webhooks', 'add', s2.url, '--json'], { env }),
    );
    expect(added2.url).toBe(s2.url);
    secret2 = added2.secret;

    // Listener 3: human output, wrong secret.
    const s3 = await start(['--port', '0', '--secret', WRONG_SECRET]);
    l3 = s3.listener;
    await runCli(['sandbox', 'webhooks', 'add', s3.url, '--json'], { env });

    opId = await createPayment('hooks-1');
    const good = await l1.json(
      (o) => o.event?.data?.operation?.operation_id === opId,
      'the pending event on listener 1',
    );
    expect(good).toMatchObject({
      verified: true,
      event: { id: `evt_${opId}_0`, type: 'operation.pending', data: { operation: { status: 'pending' } } },
    });
    expect(Date.parse(good.received_at as string)).not.toBeNaN();

    const bad = await l2.json(
      (o) => o.event?.data?.operation?.operation_id === opId,
      'the pending event on listener 2',
    );
    expect(bad).toMatchObject({ verified: false, event: { type: 'operation.pending' }, forward: { status: 200 } });
    expect(bad.error).toMatch(/signature/);

    // The app behind --forward-to got the original body and webhook-* headers: they verify with the real secret.
    const fwd = fake.requests.find((r) => r.url === '/app/hooks' && r.body.includes(opId))!;
    expect(fwd.method).toBe('POST');
    expect(JSON.parse(fwd.body)).toEqual(bad.event);
    expect(fwd.headers['webhook-id']).toBe(`evt_${opId}_0`);
    expect(fwd.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(fwd.headers['content-type']).toMatch(/application\/json/);
    expect(verifyWebhook(fwd.body, fwd.headers, secret2, { toleranceSeconds: Infinity }).id).toBe(`evt_${opId}_0`);

    const human = await l3.line((l) => l.includes(opId), 'the pending event on listener 3');
    expect(human).toContain('SIGNATURE INVALID');
    expect(human).toContain('operation.pending');
    expect(human).toContain('status pending');
    expect(human).toContain('expected 1500.00 RUB');
    expect(human).toContain('actual 0.00 RUB');
  });

  it('list masks secrets; --json is the raw body', async () => {
    const out = ok(await runCli(['sandbox', 'webhooks', 'list'], { env }));
    expect(out).toContain(id1);
    expect(out).toContain(`whsec_…${secret1.slice(-4)}`);
    expect(out).not.toContain(secret1);
    expect(out).not.toContain(secret2);
    const body = json(await runCli(['sandbox', 'webhooks', 'list', '--json'], { env }));
    expect(body).toEqual(await api('GET', '/sandbox/webhooks'));
    expect(JSON.stringify(body)).not.toContain(secret1);
  });

  it('deliveries, --event, --failed; redeliver an event sends it again to the listener', async () => {
    const eventId = `evt_${opId}_0`;
    const out = ok(await runCli(['sandbox', 'webhooks', 'deliveries', '--event', eventId], { env }));
    expect(out).toContain(eventId);
    expect(out).toContain('succeeded');
    expect(out).toContain('204');
    const body = json<{ deliveries: { event_id: string; status: string }[] }>(
      await runCli(['sandbox', 'webhooks', 'deliveries', '--event', eventId, '--json'], { env }),
    );
    expect(body).toEqual(await api('GET', `/sandbox/webhooks/deliveries?event_id=${eventId}`));
    expect(body.deliveries).toHaveLength(3);
    expect(json(await runCli(['sandbox', 'webhooks', 'deliveries', '--failed', '--json'], { env }))).toEqual({
      deliveries: [],
      has_more: false,
      next_cursor: null,
    });
    expect(ok(await runCli(['sandbox', 'webhooks', 'deliveries', '--failed'], { env }))).toContain('no deliveries');

    const before = l1.lines.filter((l) => l.includes(eventId)).length;
    const re = ok(await runCli(['sandbox', 'webhooks', 'redeliver', eventId], { env }));
    expect(re).toContain('scheduled 3');
    await l1.line(
      (l) => l.includes(eventId) && l1.lines.filter((x) => x.includes(eventId)).length > before,
      'the redelivered event',
    );
    const again = l1.lines
      .filter((l) => l.includes(eventId))
      .map((l) => JSON.parse(l) as { verified: boolean; event: unknown });
    expect(again.at(-1)).toEqual({ ...again[0], received_at: expect.any(String) });

    const none = json(await runCli(['sandbox', 'webhooks', 'redeliver', '--failed', '--json'], { env }));
    expect(none).toEqual({ scheduled: 0, deliveries: [] });
    expect(ok(await runCli(['sandbox', 'webhooks', 'redeliver', '--failed'], { env }))).toContain(
      'nothing to redeliver',
    );

    const usage = await runCli(['sandbox', 'webhooks', 'redeliver'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/exactly one/);
    const both = await runCli(['sandbox', 'webhooks', 'redeliver', eventId, '--failed'], { env });
    expect(both.code).toBe(2);
  });

  it("deliveries pages: --limit prints the next page's command; --cursor follows it; --all fetches every page", async () => {
    const everything = (await api('GET', '/sandbox/webhooks/deliveries?limit=200')) as {
      deliveries: { id: string }[];
      has_more: boolean;
    };
    expect(everything.has_more).toBe(false);
    const ids = everything.deliveries.map((d) => d.id);
    expect(ids.length).toBeGreaterThan(2);

    const page1 = ok(await runCli(['sandbox', 'webhooks', 'deliveries', '--limit', '1'], { env }));
    const next = /paygate sandbox webhooks deliveries --limit 1 --cursor (\S+)/.exec(page1)?.[1];
    expect(next, page1).toBe(ids[0]);
    expect(page1).toContain('--all');
    const page2 = json<{ deliveries: { id: string }[]; has_more: boolean; next_cursor: string }>(
      await runCli(['sandbox', 'webhooks', 'deliveries', '--limit', '1', '--cursor', next!, '--json'], { env }),
    );
    expect(page2).toEqual(await api('GET', `/sandbox/webhooks/deliveries?limit=1&cursor=${encodeURIComponent(next!)}`));
    expect(page2.deliveries.map((d) => d.id)).toEqual([ids[1]]);
    expect(page2.next_cursor).toBe(ids[1]);

    const all = json<{ deliveries: { id: string }[] }>(
      await runCli(['sandbox', 'webhooks', 'deliveries', '--all', '--limit', '1', '--json'], { env }),
    );
    expect(all).toEqual({ deliveries: everything.deliveries, has_more: false, next_cursor: null });
    const last = ok(await runCli(['sandbox', 'webhooks', 'deliveries', '--all'], { env }));
    expect(last).not.toContain('--cursor');

    const bad = await runCli(['sandbox', 'webhooks', 'deliveries', '--limit', '0'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/1 to 200/);
    const unknown = await runCli(['sandbox', 'webhooks', 'deliveries', '--cursor', 'dlv_nope'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/start again without it/);
  });

  it('rotate-secret prints the new secret once; the listener accepts old and new (several --secret)', async () => {
    const out = ok(await runCli(['sandbox', 'webhooks', 'rotate-secret', id1], { env }));
    expect(out).toContain('(shown once)');
    const rotated = SECRET_RE.exec(out)![0];
    expect(rotated).not.toBe(secret1);
    expect(out).toContain('previous_secret_expires_at');
    const listed = ok(await runCli(['sandbox', 'webhooks', 'list'], { env }));
    expect(listed).toContain(`whsec_…${rotated.slice(-4)}`);
    expect(listed).not.toContain(rotated);

    // Another endpoint, rotated before its listener starts with a wrong secret and the new one (--secret twice).
    const port = await deadPort();
    const added = json<{ id: string; secret: string }>(
      await runCli(['sandbox', 'webhooks', 'add', `http://127.0.0.1:${port}/webhooks`, '--json'], { env }),
    );
    const r2 = json<{ id: string; secret: string; previous_secret_expires_at: string }>(
      await runCli(['sandbox', 'webhooks', 'rotate-secret', added.id, '--json'], { env }),
    );
    expect(r2.id).toBe(added.id);
    expect(r2.secret).not.toBe(added.secret);
    const s = await start(['--port', String(port), '--json', '--secret', WRONG_SECRET, '--secret', r2.secret]);

    const op = await createPayment('hooks-rotate');
    // Endpoint 1 signs with secret1 and `rotated`: listener 1 (secret1 only) still verifies during the overlap.
    expect(await l1.json((o) => o.event?.data?.operation?.operation_id === op, 'listener 1')).toMatchObject({
      verified: true,
    });
    expect(await s.listener.json((o) => o.event?.data?.operation?.operation_id === op, 'listener s')).toMatchObject({
      verified: true,
    });
    expect(await runCli(['sandbox', 'webhooks', 'remove', added.id, '--json'], { env })).toMatchObject({ code: 0 });
  });

  it('remove deletes an endpoint (human and --json); an unknown id exits 1', async () => {
    const out = ok(await runCli(['sandbox', 'webhooks', 'remove', id1], { env }));
    expect(out).toContain(`deleted webhook endpoint ${id1}`);
    const missing = await runCli(['sandbox', 'webhooks', 'remove', id1, '--json'], { env });
    expect(missing.code).toBe(1);
    expect(ok(await runCli(['sandbox', 'webhooks', 'list'], { env }))).not.toContain(id1);
  });

  it('the listener stops on SIGTERM with exit 0', async () => {
    expect(await l3.stop()).toBe(0);
    expect(await l2.stop()).toBe(0);
  });
});
