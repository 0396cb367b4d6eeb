// `paygate trigger <event>`: flags, help and typed options (run: run.ts). The events come from the
// contract's list of webhook event types (triggers.ts).
import { Argument, type Command } from 'commander';
import { TRIGGER_NAMES, TRIGGERS } from '../../triggers.js';
import { action, example, flag, str, type Parsed } from '../shared.js';

export interface TriggerOptions {
  /** A name of TRIGGER_NAMES (commander checks it). */
  event: string;
  /** Payment method of the create. Default WT_RUB_C2C (the default world's card route). */
  method: string;
  /** Amount of the create. Default 1500.00 (a payment), 1000.00 (a payout). */
  amount?: string | undefined;
  /** ISO 4217 currency of the create. Default RUB. */
  currency: string;
  /** Payout destination (card number). Default 2200700000000004. */
  number: string;
  /** client_id of the create (a magic tag is appended where the flow needs one). Default trigger. */
  clientId: string;
  json: boolean;
}

function triggerOptions({ args, opts }: Parsed): TriggerOptions {
  return {
    event: String(args[0]),
    method: str(opts.method) ?? 'WT_RUB_C2C',
    amount: str(opts.amount),
    currency: str(opts.currency) ?? 'RUB',
    number: str(opts.number) ?? '2200700000000004',
    clientId: str(opts.clientId) ?? 'trigger',
    json: flag(opts.json),
  };
}

function eventList(): string {
  const width = Math.max(...TRIGGER_NAMES.map((n) => n.length));
  return [...TRIGGERS].map(([name, t]) => `  ${name.padEnd(width)}  → ${t.event}: ${t.about}`).join('\n');
}

/** Defines `trigger` on the command the program created for it (its description is set there). */
export function defineTrigger(cmd: Command): void {
  cmd
    .addArgument(new Argument('<event>', 'the event to produce (see the list below)').choices(TRIGGER_NAMES))
    .option('--method <method>', 'payment method of the create', 'WT_RUB_C2C')
    .option('--amount <amount>', 'amount of the create (default 1500.00 for a payment, 1000.00 for a payout)')
    .option('--currency <code>', 'ISO 4217 currency of the create', 'RUB')
    .option('--number <card>', 'payout destination card number', '2200700000000004')
    .option(
      '--client-id <id>',
      'client_id of the create (+receipt or +reject is appended where the flow needs it)',
      'trigger',
    )
    .option('--json', 'print {"trigger","event_type","operation_id","event_id","status"} as JSON')
    .addHelpText(
      'after',
      `
Runs the bundled flow that leads to the event for the shop of the API key (--api-key, PAYGATE_API_KEY or the
profile): a create with the right magic client_id, then the sandbox controls (pay, settle, a receipt upload,
cancel_operation). Prints the operation id and the id of the event (its webhook-id); every webhook endpoint of
the shop receives it (\`paygate webhooks listen\` to watch).

Events:
${eventList()}
${example(`
  $ paygate trigger payment.completed
  $ paygate trigger payout.failed --json
  $ paygate trigger operation.manual_check --api-key pg_test_a_7Hq2Lm9XwR4tNc8V`)}`,
    )
    .action(action(triggerOptions, async () => (await import('./run.js')).trigger));
}
