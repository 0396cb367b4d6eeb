// The flags of a create request (spec §2.2), named after the fields in kebab case: shared by `payment create`,
// `payment link` and `payout create`, with their typed options. The destination fields (--number, --name,
// --bankname) apply to payouts; `payment` commands still accept them (the gateway ignores them) but do not list them.
import { Option, type Command } from 'commander';
import { flag, REQUIRED, str, type Parsed } from './shared.js';

/** `payment create`, `payout create`, and the base of `payment link`. The required fields are asked for on a TTY. */
export interface CreateOptions {
  method?: string | undefined;
  /** Decimal amount with at most 2 decimals. */
  amount?: string | undefined;
  currency?: string | undefined;
  clientId?: string | undefined;
  clientIp?: string | undefined;
  /** Idempotency key. Default: a new UUID, printed. */
  merchantOperationId?: string | undefined;
  number?: string | undefined;
  name?: string | undefined;
  bankname?: string | undefined;
  /** Fail (exit 1) when the create answers another status. Default: any status is a success. */
  expectStatus?: string | undefined;
  /** Print exactly the response body. Default false. */
  json: boolean;
}

/** The statuses a create can answer (spec §3); a flexible link can also answer amount_selection. */
const CREATE_STATUSES = ['pending', 'awaiting_confirmation', 'manual_check', 'completed', 'cancelled', 'rejected'];

export function addCreateFlags(cmd: Command, kind: 'payment' | 'link' | 'payout'): Command {
  const payout = kind === 'payout';
  const destination = (flags: string, description: string): Option => {
    const o = new Option(flags, description);
    return payout ? o : o.hideHelp();
  };
  return cmd
    .option('--method <method>', `payment method, e.g. WT_RUB_C2C or WT_RUB_PHONE${REQUIRED}`)
    .option(
      '--amount <amount>',
      `decimal amount with at most 2 decimals, e.g. 1500.00${kind === 'link' ? ' (required unless --flexible)' : REQUIRED}`,
    )
    .option('--currency <code>', `ISO 4217 currency code, e.g. RUB${REQUIRED}`)
    .option('--client-id <id>', `end-user identifier${REQUIRED}`)
    .option('--client-ip <ip>', 'end-user IP address (antifraud)')
    .option('--merchant-operation-id <id>', 'idempotency key (default: a new UUID, printed)')
    .addOption(destination('--number <number>', `destination card or phone number${REQUIRED}`))
    .addOption(destination('--name <name>', 'holder or recipient name (default: аноним)'))
    .addOption(destination('--bankname <code>', 'destination bank code, e.g. sber (required for WT_RUB_PHONE)'))
    .addOption(
      new Option('--expect-status <status>', 'exit 1 unless the create answers this status (for scripts)').choices(
        kind === 'link' ? [...CREATE_STATUSES, 'amount_selection'] : CREATE_STATUSES,
      ),
    )
    .option('--json', 'print exactly the response body as JSON');
}

export function createOptions({ opts }: Parsed): CreateOptions {
  return {
    method: str(opts.method),
    amount: str(opts.amount),
    currency: str(opts.currency),
    clientId: str(opts.clientId),
    clientIp: str(opts.clientIp),
    merchantOperationId: str(opts.merchantOperationId),
    number: str(opts.number),
    name: str(opts.name),
    bankname: str(opts.bankname),
    expectStatus: str(opts.expectStatus),
    json: flag(opts.json),
  };
}
