// The flags of a create request (spec §2.2), named after the fields in kebab case: shared by `payment create`,
// `payment link` and `payout create`, with their typed options.
import type { Command } from 'commander';
import { flag, str, type Parsed } from './shared.js';

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
  /** Print exactly the response body. Default false. */
  json: boolean;
}

export function addCreateFlags(cmd: Command): Command {
  return cmd
    .option('--method <method>', 'payment method, e.g. WT_RUB_C2C or WT_RUB_PHONE')
    .option('--amount <amount>', 'decimal amount with at most 2 decimals, e.g. 1500.00')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. RUB')
    .option('--client-id <id>', 'end-user identifier')
    .option('--client-ip <ip>', 'end-user IP address (antifraud)')
    .option('--merchant-operation-id <id>', 'idempotency key (default: a new UUID, printed)')
    .option('--number <number>', 'destination card or phone number (payouts)')
    .option('--name <name>', 'holder or recipient name (payouts)')
    .option('--bankname <code>', 'destination bank code, e.g. sber (WT_RUB_PHONE payouts)')
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
    json: flag(opts.json),
  };
}
