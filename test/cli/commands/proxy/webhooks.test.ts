// `paygate proxy --forward-webhooks-to <url> --webhook-secret <whsec_…>` through the binary (issue 27 §1): the
// --json line names the webhook URL to register upstream; a sandbox upstream's webhooks reach the receiver unchanged
// and verify with the stock standardwebhooks verifier; a forged one is answered 400 and printed as a violation (exit
// 1); the secret (PAYGATE_WEBHOOK_SECRET here) is in no output; the flags' usage errors; the banner without a secret.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../../../src/testing/index.js';
import { signature } from '../../../../src/webhooks/index.js';
import { useCleanup } from '../../../helpers/cleanup.js';
import { startReceiver } from '../../../webhooks/receiver.js';
import { BIN, runCli } from '../../run-cli.js';

vi.setConfig({ testTimeout: 90_000 });
const defer = useCleanup();

function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') out[k] = v;
  return { ...out, NO_COLOR: '1', ...env };
}

/** `paygate proxy --port 0 <args>` until `ready(lines)`; stop() sends SIGTERM and resolves with the exit code. */
async function startProxy(args: string[], env: Record<string, string>, ready: (lines: string[]) => boolean) {
  const child = spawn(process.execPath, [BIN, 'proxy', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(env),
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (ready(lines)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
  const stop = async () => (child.kill('SIGTERM'), exited);
  return { lines, stderr: () => stderr, stop };
}

describe('paygate proxy --forward-webhooks-to', () => {
  it('forwards the upstream webhooks unchanged, refuses a forged one (400, exit 1), never prints the secret', async () => {
    let hookUrl = '';
    const sb = await startSandbox({
      forwardWebhooksTo: async (req: Request) =>
        fetch(hookUrl, { method: 'POST', headers: req.headers, body: await req.arrayBuffer() }),
    });
    defer(() => sb.close());
    const hooks = await startReceiver(() => ({ status: 204 }));
    defer(() => hooks.close());
    const p = await startProxy(
      ['--json', '--upstream', sb.baseUrl, '--forward-webhooks-to', hooks.url],
      { PAYGATE_WEBHOOK_SECRET: sb.webhookSecret },
      (lines) => lines.length === 1,
    );
    const info = JSON.parse(p.lines[0]!) as { base_url: string; webhook_url: string; webhooks_verified: boolean };
    expect(info.webhook_url).toBe(`${info.base_url}/proxy/webhooks`);
    expect(info.webhooks_verified).toBe(true);
    hookUrl = info.webhook_url;

    const res = await fetch(`${info.base_url}/v1/payment`, {
      method: 'POST',
      headers: { 'x-api-key': sb.keys.default, 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_operation_id: 'hook-1',
        client_id: 'a',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      }),
    });
    expect(res.status).toBe(200);
    const op = (await res.json()) as { operation_id: string };
    await sb.pay(op.operation_id);
    await sb.sandbox.webhooks.idle();
    expect(hooks.received).toHaveLength(2);
    const stock = new Webhook(sb.webhookSecret);
    const types = hooks.received.map(
      (r) => (stock.verify(r.body, r.headers as Record<string, string>) as { type: string }).type,
    );
    expect(types).toEqual(['operation.pending', 'operation.completed']);

    // A delivery signed with another secret: 400 to the sender, not forwarded, a violation line.
    const body = hooks.received[1]!.body;
    const ts = Math.floor(Date.now() / 1000);
    const forged = await fetch(info.webhook_url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(ts),
        'webhook-signature': signature(`whsec_${randomBytes(24).toString('base64')}`, 'msg_forged', ts, body),
      },
      body,
    });
    expect(forged.status).toBe(400);
    expect(hooks.received).toHaveLength(2);
    expect(await p.stop()).toBe(1);
    const violations = p.lines
      .map((l) => JSON.parse(l) as { type?: string; rule?: string })
      .filter((l) => l.type === 'violation');
    expect(violations.map((v) => v.rule)).toEqual(['webhook.signature']);
    for (const text of [p.lines.join('\n'), p.stderr()]) expect(text).not.toContain(sb.webhookSecret.slice(6));
  });

  it('the banner names the URL to register and says when deliveries are not verified', async () => {
    const hooks = await startReceiver();
    defer(() => hooks.close());
    const p = await startProxy(['--upstream', 'http://127.0.0.1:9', '--forward-webhooks-to', hooks.url], {}, (lines) =>
      lines.some((l) => l.includes('NOT verified')),
    );
    const text = p.lines.join('\n');
    expect(text).toMatch(/webhooks +http:\/\/127\.0\.0\.1:\d+\/proxy\/webhooks +\(register this URL upstream\)/);
    expect(text).toContain(`forwarded to ${hooks.url}`);
    expect(text).toMatch(/dashboard +http:\/\/127\.0\.0\.1:\d+\/dashboard +\(sign in with the admin token/);
    expect(await p.stop()).toBe(0);
  });

  it('usage errors: a secret without --forward-webhooks-to, a malformed URL or secret (exit 2, the secret unquoted)', async () => {
    const secret = 'whsec_not base64!!';
    const cases = [
      ['--webhook-secret', 'whsec_c2VjcmV0'],
      ['--forward-webhooks-to', 'not a url'],
      ['--forward-webhooks-to', 'http://127.0.0.1:3000/hooks', '--webhook-secret', secret],
    ];
    for (const args of cases) {
      const r = await runCli(['proxy', '--upstream', 'http://127.0.0.1:9', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--forward-webhooks-to|--webhook-secret/);
      expect(r.stderr).not.toContain('not base64!!');
    }
  });
});
