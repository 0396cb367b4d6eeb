// `paygate proxy --record <file> --forward-webhooks-to <url>` through the binary: the webhooks the proxy verified and
// forwarded are expected on the recorded steps that cause them (the create, the operations.pay inserted for the
// payer's payment), and the header comment says so; the secret is in no output and not in the file.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { startSandbox } from '../../../../src/testing/index.js';
import { tempDir, useCleanup } from '../../../helpers/cleanup.js';
import { startReceiver } from '../../../webhooks/receiver.js';
import { BIN } from '../../run-cli.js';

vi.setConfig({ testTimeout: 90_000 });
const defer = useCleanup();

function childEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') out[k] = v;
  return { ...out, NO_COLOR: '1', ...env };
}

describe('paygate proxy --record --forward-webhooks-to', () => {
  it('writes expect.webhooks on the steps that cause them', async () => {
    const dir = tempDir(defer);
    let hookUrl = '';
    const sb = await startSandbox({
      forwardWebhooksTo: async (req: Request) =>
        fetch(hookUrl, { method: 'POST', headers: req.headers, body: await req.arrayBuffer() }),
    });
    defer(() => sb.close());
    const hooks = await startReceiver(() => ({ status: 204 }));
    defer(() => hooks.close());
    const file = join(dir, 'flow.yaml');
    const args = ['proxy', '--port', '0', '--json', '--upstream', sb.baseUrl, '--record', file];
    const child = spawn(process.execPath, [BIN, ...args, '--forward-webhooks-to', hooks.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv({ PAYGATE_WEBHOOK_SECRET: sb.webhookSecret }),
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
      createInterface({ input: child.stdout }).on('line', (line) => (lines.push(line), resolve()));
      child.once('exit', (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
    });
    const info = JSON.parse(lines[0]!) as { base_url: string; webhook_url: string };
    hookUrl = info.webhook_url;
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${info.base_url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': sb.keys.shop_a!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { operation_id: string; status: string };
    };
    const op = await call('/v1/payment', {
      merchant_operation_id: 'rec-hook-1',
      client_id: 'a',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    await sb.pay(op.operation_id);
    await sb.sandbox.webhooks.idle();
    expect((await call('/v1/get_operation_state', { operation_id: op.operation_id })).status).toBe('completed');
    expect(hooks.received).toHaveLength(2);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const text = readFileSync(file, 'utf8');
    const steps = (parse(text) as { steps: { call?: string; expect?: { webhooks?: string[] } }[] }).steps;
    expect(steps.map((s) => [s.call, s.expect?.webhooks])).toEqual([
      ['payment.create', ['operation.pending']],
      ['operations.pay', ['operation.completed']],
      ['operation.state', undefined],
    ]);
    expect(text).toContain('# Webhooks: 2 distinct events verified and forwarded; 2 are expected');
    for (const t of [text, lines.join('\n'), stderr]) expect(t).not.toContain(sb.webhookSecret.slice(6));
  });
});
