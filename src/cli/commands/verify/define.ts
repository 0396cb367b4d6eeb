// `paygate verify`: flags, help and typed options (run: run.ts). A safe, bounded contract check of any gateway
// (docs/verify.md); --base-url, --api-key and --ca are the global options.
import type { Command } from 'commander';
import { action, example, flag, num, parseIntIn, str, type Parsed } from '../shared.js';

export interface VerifyCommandOptions {
  /** The key of another shop, for the cross-shop 404s. Default: none (those checks are skipped). */
  secondKey: string | undefined;
  /** The JUnit XML file to write. Default: none. */
  junit: string | undefined;
  json: boolean;
  /** At most this many requests that could create an operation. Default 8. */
  maxCreates: number | undefined;
  /** Their amounts add up to at most this. Default 500.00. */
  maxAmount: string | undefined;
  /** Each payment's amount. Default 100.00. */
  amount: string | undefined;
  /** Default WT_RUB_C2C. */
  method: string | undefined;
  /** Default RUB. */
  currency: string | undefined;
  globals: Parsed['globals'];
}

const verifyOptions = ({ opts, globals }: Parsed): VerifyCommandOptions => ({
  secondKey: str(opts.secondKey),
  junit: str(opts.junit),
  json: flag(opts.json),
  maxCreates: num(opts.maxCreates),
  maxAmount: str(opts.maxAmount),
  amount: str(opts.amount),
  method: str(opts.method),
  currency: str(opts.currency),
  globals,
});

export function defineVerify(program: Command): void {
  program
    .command('verify')
    .description('check a running gateway against the contract: safe, bounded, a result per rule (docs/verify.md)')
    .option('--second-key <key>', 'the API key of another shop, for the cross-shop 404s (else they are skipped)')
    .option('--junit <file>', 'also write a JUnit XML file: one testcase per rule')
    .option('--json', 'print one JSON document: { passed, summary, rules, violations, skipped, created, caps }')
    .option(
      '--max-creates <n>',
      'at most this many requests that could create an operation (default 8)',
      parseIntIn(0, 1000, 'an integer from 0 to 1000'),
    )
    .option('--max-amount <amount>', 'their amounts add up to at most this (default 500.00)')
    .option('--amount <amount>', 'the amount of each payment verify creates (default 100.00)')
    .option('--method <method>', 'the payment method of the creates and amount lookups (default WT_RUB_C2C)')
    .option('--currency <code>', 'its currency (default RUB)')
    .addHelpText(
      'after',
      `
Sends authentication and validation probes (nothing is created by a gateway that follows the spec), a few small
payments with their replays and a 412 conflict, state reads by both ids, cross-shop 404s (--second-key),
balances, availability and recommendations; every exchange is also checked by the conformance rules (the same
rule ids as \`paygate proxy\`). It names no operation it did not create, stops at the caps, and cancels every
payment it created. Progress is shown on a terminal only.

Exit codes: 0 every rule passed, 1 a rule failed, 2 usage, 3 the gateway cannot be reached, 130 Ctrl+C (what it
created is cancelled first).
${example(`
  $ paygate verify --base-url https://staging.gateway.example --api-key "$KEY" --second-key "$OTHER_SHOP_KEY"
  $ paygate verify --base-url http://127.0.0.1:4080 --api-key pg_test_a_… --junit reports/verify.xml --json
  $ paygate verify --base-url https://staging.gateway.example --api-key "$KEY" --max-creates 4 --max-amount 200.00`)}`,
    )
    .action(action(verifyOptions, async () => (await import('./run.js')).verify));
}
