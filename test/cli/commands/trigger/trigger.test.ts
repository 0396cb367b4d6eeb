// `paygate trigger <event>`: every webhook event type the contract declares has a trigger flow, and running each
// flow (every trigger name) produces that event, with the printed event id; the CLI end to end prints the ids
// (--json too) and its help lists the events.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runTrigger } from '../../../../src/cli/commands/trigger/run.js';
import type { TriggerOptions } from '../../../../src/cli/commands/trigger/define.js';
import { TRIGGER_NAMES, TRIGGERS } from '../../../../src/cli/triggers.js';
import { WebhookEventType } from '../../../../src/contract/webhook-event.js';
import { startSandbox, type TestSandbox } from '../../../../src/testing/index.js';
import { json, ok, useLiveSandbox } from '../../live-sandbox.js';
import { runCli } from '../../run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const OPTIONS: Omit<TriggerOptions, 'event'> = {
  method: 'WT_RUB_C2C',
  currency: 'RUB',
  number: '2200700000000004',
  clientId: 'trigger',
  json: false,
};

describe('trigger flows (in process)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('every declared webhook event type is a trigger name, and has a payment.<status> flow', () => {
    for (const type of WebhookEventType.options) {
      expect(TRIGGERS.get(type)?.event, type).toBe(type);
      expect(TRIGGERS.get(`payment.${type.slice('operation.'.length)}`)?.event, type).toBe(type);
    }
    for (const name of [
      'payment.completed',
      'payment.awaiting_confirmation',
      'payment.manual_check',
      'payout.completed',
      'payout.failed',
      'payment.cancelled',
    ]) {
      expect(TRIGGER_NAMES).toContain(name);
    }
  });

  it.each([...TRIGGER_NAMES])('%s produces its event, with the event id it prints', async (name) => {
    const r = await runTrigger(sb.client, name, { ...OPTIONS, event: name });
    const expected = TRIGGERS.get(name)!.event;
    expect(r).toMatchObject({ trigger: name, event_type: expected });
    const got = await sb.webhooks.waitFor(expected, { operationId: r.operation_id });
    expect(got.id).toBe(r.event_id);
    expect(got.data.operation.type).toBe(name.startsWith('payout.') ? 'payout' : 'payment');
  });

  it('a flow the route cannot take says so (exit 1), naming the status it ended in', async () => {
    await expect(
      runTrigger(sb.client, 'payment.awaiting_confirmation', { ...OPTIONS, event: 'x', clientId: 'x+reject' }),
    ).rejects.toThrow(/left operation .* rejected, not awaiting_confirmation/);
  });
});

describe('paygate trigger (CLI)', () => {
  const live = useLiveSandbox({ frozenClock: true, shop: 'shop_a' });

  it('prints the operation id and the event id; --json', async () => {
    const body = json<{ trigger: string; event_type: string; operation_id: string; event_id: string; status: string }>(
      await runCli(['trigger', 'payout.failed', '--json'], { env: live.env }),
    );
    expect(body).toMatchObject({ trigger: 'payout.failed', event_type: 'operation.rejected', status: 'rejected' });
    expect(body.event_id).toBe(`evt_${body.operation_id}_1`);
    // The receipt upload reads the bundled fixture from where the CLI bundle is.
    expect(json(await runCli(['trigger', 'payment.manual_check', '--json'], { env: live.env }))).toMatchObject({
      event_type: 'operation.manual_check',
      status: 'manual_check',
    });
    const text = ok(await runCli(['trigger', 'payment.completed'], { env: live.env }));
    expect(text).toMatch(
      /Triggered payment\.completed: operation\.completed\n {2}operation {2}[0-9a-f-]{36} {2}\(completed\)\n {2}event {6}evt_[0-9a-f-]{36}_1/,
    );
  });

  it('--help lists every event with its flow and an example; an unknown event is a usage error', async () => {
    const help = ok(await runCli(['trigger', '--help'], { env: live.env }));
    for (const name of TRIGGER_NAMES) expect(help).toContain(`  ${name} `);
    expect(help).toContain('$ paygate trigger payment.completed');
    const bad = await runCli(['trigger', 'payment.teleported'], { env: live.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('payment.teleported');
  });
});
