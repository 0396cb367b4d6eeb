// `paygate trigger <event>` (flags: define.ts): runs the bundled flow that produces a webhook event for the
// API key's shop — a create with the right magic client_id, then the sandbox controls — and prints the operation id
// and the event id (the webhook-id every endpoint of the shop receives it with).
import { fileURLToPath } from 'node:url';
import type { Paygate } from '../../../client/index.js';
import type { WebhookEventStatus } from '../../../contract/webhook-event-types.js';
import type { TriggerOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { UnexpectedStatusError, UsageError } from '../../errors.js';
import { TRIGGERS, type Trigger } from '../../triggers.js';

/** A receipt the automatic check doubts (edited metadata): the payment goes to manual_check. */
const DOUBTED_RECEIPT = fileURLToPath(new URL('../../../../fixtures/receipts/fake-photoshop.pdf', import.meta.url));

/** Runs a flow and returns the id of the operation it ends on. */
type Flow = (client: Paygate, o: TriggerOptions) => Promise<string>;

const createPayment = async (client: Paygate, o: TriggerOptions, tag = ''): Promise<string> =>
  (
    await client.payments.create({
      client_id: `${o.clientId}${tag}`,
      method: o.method,
      amount: o.amount ?? '1500.00',
      currency: o.currency,
    })
  ).operation_id;

const createPayout = async (client: Paygate, o: TriggerOptions): Promise<string> =>
  (
    await client.payouts.create({
      client_id: o.clientId,
      method: o.method,
      amount: o.amount ?? '1000.00',
      currency: o.currency,
      number: o.number,
    })
  ).operation_id;

/** The payment flow of every declared event type (type-checked against the contract's list). */
const PAYMENT_FLOWS: Record<WebhookEventStatus, Flow> = {
  pending: (c, o) => createPayment(c, o),
  awaiting_confirmation: (c, o) => createPayment(c, o, '+receipt'),
  manual_check: async (c, o) => {
    const id = await createPayment(c, o, '+receipt');
    await c.payments.confirm({
      operation_id: id,
      receipt: DOUBTED_RECEIPT,
      filename: 'receipt.pdf',
      contentType: 'application/pdf',
    });
    return id;
  },
  completed: async (c, o) => {
    const id = await createPayment(c, o);
    await c.sandbox.operations.pay({ operation_id: id });
    return id;
  },
  cancelled: async (c, o) => {
    const id = await createPayment(c, o);
    await c.operations.cancel({ operation_id: id });
    return id;
  },
  rejected: (c, o) => createPayment(c, o, '+reject'),
};

const PAYOUT_FLOWS: Record<string, Flow> = {
  'payout.pending': createPayout,
  'payout.completed': async (c, o) => {
    const id = await createPayout(c, o);
    await c.sandbox.operations.settle({ operation_id: id }, 'completed');
    return id;
  },
  'payout.failed': async (c, o) => {
    const id = await createPayout(c, o);
    await c.sandbox.operations.settle({ operation_id: id }, 'failed');
    return id;
  },
};

function flowOf(name: string, t: Trigger): Flow {
  const flow =
    t.kind === 'payout' ? PAYOUT_FLOWS[name] : PAYMENT_FLOWS[t.event.slice('operation.'.length) as WebhookEventStatus];
  if (!flow) throw new UsageError(`no flow for ${name}`);
  return flow;
}

export interface Triggered {
  trigger: string;
  event_type: string;
  operation_id: string;
  event_id: string;
  /** The operation's status once the flow ran. */
  status: string;
}

/** The flow behind `name`, run with `client`; throws when the operation did not end where the event says. */
export async function runTrigger(client: Paygate, name: string, o: TriggerOptions): Promise<Triggered> {
  const t = TRIGGERS.get(name);
  if (!t) throw new UsageError(`unknown event ${JSON.stringify(name)}`, `one of: ${[...TRIGGERS.keys()].join(', ')}`);
  const id = await flowOf(name, t)(client, o);
  const details = await client.sandbox.operations.details({ operation_id: id });
  const status = t.event.slice('operation.'.length);
  // The event id is `evt_<operation_id>_<n>`: n the index of the history entry that entered the status.
  const n = details.history.findLastIndex((h) => h.to === status);
  if (n < 0) {
    throw new UnexpectedStatusError(
      `the ${name} flow left operation ${id} ${details.operation.status}, not ${status}`,
      `its route may not support this flow: try --method / --amount / --currency for this shop (\`paygate sandbox operations --json\` shows its operations)`,
    );
  }
  return {
    trigger: name,
    event_type: t.event,
    operation_id: id,
    event_id: `evt_${id}_${n}`,
    status: details.operation.status,
  };
}

export async function trigger(options: TriggerOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const r = await deps.output.spin(`Triggering ${options.event}…`, () => runTrigger(client, options.event, options));
  if (options.json) deps.output.json(r);
  else
    deps.output.print(
      [
        `Triggered ${r.trigger}: ${r.event_type}`,
        `  operation  ${r.operation_id}  (${r.status})`,
        `  event      ${r.event_id}`,
      ].join('\n'),
    );
}
