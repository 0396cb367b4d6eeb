// `paygate webhooks listen` in one step, like `stripe listen --forward-to`: the CLI as a subprocess against a sandbox
// started in this process. It listens on 127.0.0.1 port 0, registers itself as a webhook endpoint of the key's shop,
// prints its secret (--json line), verifies each delivery with it (default 300 s tolerance on the wall-time
// webhook-timestamp), forwards it unchanged to --forward-to, and removes the endpoint on SIGINT.
import { spawn } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useLiveSandbox } from '../../live-sandbox.js';
import { BIN, ROOT, fakeServer, type FakeServer } from '../../run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const live = useLiveSandbox({ frozenClock: true, startTime: '2026-01-01T00:00:00Z', shop: 'shop_a' });
let app: FakeServer;
beforeAll(async () => {
  app = await fakeServer(() => ({ status: 202, body: { ok: true } }));
});
afterAll(() => app?.close());

/** The listener child: its stdout lines as they come (waited for, never slept on), stderr, and its exit. */
function listen(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  let stderr = '';
  let waiters: { pred: (l: Record<string, any>) => boolean; resolve: (l: Record<string, any>) => void }[] = [];
  const parse = (l: string) => {
    try {
      return JSON.parse(l) as Record<string, any>;
    } catch {
      return undefined;
    }
  };
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const l = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(l);
      const o = parse(l);
      if (o) waiters = waiters.filter((w) => (w.pred(o) ? (w.resolve(o), false) : true));
    }
  });
  const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
  return {
    exited,
    stderr: () => stderr,
    json(pred: (o: Record<string, any>) => boolean): Promise<Record<string, any>> {
      const seen = lines.map(parse).find((o) => o && pred(o));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`no such line; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)),
          30_000,
        );
        waiters.push({ pred, resolve: (o) => (clearTimeout(t), resolve(o)) });
      });
    },
    signal: (s: NodeJS.Signals) => child.kill(s),
  };
}

describe('paygate webhooks listen (one step)', () => {
  it('registers itself, prints its secret, verifies and forwards a delivery, and unregisters on SIGINT', async () => {
    const { PAYGATE_ADMIN_TOKEN: _a, ...env } = live.env;
    const l = listen(['--json', '--forward-to', `${app.baseUrl}/app/hooks`], env);
    try {
      const first = await l.json((o) => 'listening' in o);
      expect(first.listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
      expect(first.listening).not.toMatch(/:4090\//);
      expect(first.secret).toMatch(/^whsec_/);
      const listed = (await live.api('GET', '/sandbox/webhooks', 'key')) as { webhooks: { id: string; url: string }[] };
      expect(listed.webhooks).toContainEqual(expect.objectContaining({ id: first.endpoint_id, url: first.listening }));

      const op = (await live.api('POST', '/v1/payment', 'key', {
        merchant_operation_id: `listen-${Date.now()}`,
        client_id: 'alice',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      })) as { operation_id: string };
      const got = await l.json((o) => o.event?.data?.operation?.operation_id === op.operation_id);
      expect(got).toMatchObject({
        verified: true,
        event: { id: `evt_${op.operation_id}_0`, type: 'operation.pending' },
        forward: { status: 202 },
      });

      // The app got the original body and webhook-* headers: the stock libraries verify them with the printed secret.
      const fwd = app.requests.find((r) => r.url === '/app/hooks' && r.body.includes(op.operation_id))!;
      const headers = {
        'webhook-id': String(fwd.headers['webhook-id']),
        'webhook-timestamp': String(fwd.headers['webhook-timestamp']),
        'webhook-signature': String(fwd.headers['webhook-signature']),
      };
      expect((new Webhook(first.secret).verify(fwd.body, headers) as { id: string }).id).toBe(
        `evt_${op.operation_id}_0`,
      );
      expect(new SvixWebhook(first.secret).verify(fwd.body, headers)).toMatchObject({ type: 'operation.pending' });

      // A replay outside the default 300 s tolerance (wall time) is flagged.
      const stale = Math.floor(Date.now() / 1000) - 600;
      const body = fwd.body.replace(/"id":"evt_[^"]+"/, '"id":"evt_replayed"');
      const sig = new Webhook(first.secret).sign('evt_replayed', new Date(stale * 1000), body);
      await fetch(first.listening, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'evt_replayed',
          'webhook-timestamp': String(stale),
          'webhook-signature': sig,
        },
        body,
      });
      expect(await l.json((o) => o.event?.id === 'evt_replayed')).toMatchObject({
        verified: false,
        error: expect.stringMatching(/tolerance of 300 s/),
      });

      l.signal('SIGINT');
      expect(await l.exited).toBe(0);
      expect(l.stderr()).toContain(`removed webhook endpoint ${first.endpoint_id}`);
      const after = (await live.api('GET', '/sandbox/webhooks', 'key')) as { webhooks: { id: string }[] };
      expect(after.webhooks.map((w) => w.id)).not.toContain(first.endpoint_id);
    } finally {
      l.signal('SIGKILL');
    }
  });

  it('--no-register only listens (the two-step way): no endpoint, no secret', async () => {
    const l = listen(['--no-register', '--json'], { ...live.env });
    try {
      const first = await l.json((o) => 'listening' in o);
      expect(Object.keys(first)).toEqual(['listening']);
      const listed = (await live.api('GET', '/sandbox/webhooks', 'key')) as { webhooks: { url: string }[] };
      expect(listed.webhooks.map((w) => w.url)).not.toContain(first.listening);
      l.signal('SIGTERM');
      expect(await l.exited).toBe(0);
    } finally {
      l.signal('SIGKILL');
    }
  });
});
