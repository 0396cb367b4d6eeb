// `paygate verify` (flags: define.ts): checks its flags, runs src/verify over the CLI's node:http transport (with
// --ca / PAYGATE_CA), prints the report (text, or one JSON document), writes --junit, and exits 0 (every rule
// passed), 1 (a rule failed), 2 (usage) or 3 (the gateway cannot be reached).
import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import type { VerifyCommandOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { CheckFailedError, CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { DEFAULT_AMOUNT, DEFAULT_MAX_AMOUNT } from '../../../verify/budget.js';

const AMOUNT = /^\d+(\.\d{1,2})?$/;

function positiveAmount(value: string | undefined, flagName: string): string | undefined {
  if (value === undefined) return undefined;
  if (!AMOUNT.test(value) || new Decimal(value).lte(0))
    throw new UsageError(`${flagName} ${value}: expected a positive amount with at most 2 decimals, e.g. 100.00`);
  return new Decimal(value).toFixed(2);
}

/** The flags checked before anything is sent. */
function checkFlags(o: VerifyCommandOptions) {
  const amount = positiveAmount(o.amount, '--amount');
  const maxAmount = positiveAmount(o.maxAmount, '--max-amount');
  if (new Decimal(amount ?? DEFAULT_AMOUNT).gt(maxAmount ?? DEFAULT_MAX_AMOUNT))
    throw new UsageError(
      `--amount ${amount ?? DEFAULT_AMOUNT} is above --max-amount ${maxAmount ?? DEFAULT_MAX_AMOUNT}: no payment could be created`,
      'lower --amount or raise --max-amount',
    );
  if (o.secondKey !== undefined && (o.secondKey === '' || /[^\x21-\x7e]/.test(o.secondKey)))
    throw new UsageError('--second-key must be a key of visible ASCII characters');
  return { amount, maxAmount };
}

async function transportOf(o: VerifyCommandOptions) {
  const { connect } = await import('../../api.js');
  const { registerSecret } = await import('../../mask.js');
  registerSecret(o.secondKey);
  // The usual resolution and checks of base URL, key and --ca (usage errors before anything is sent).
  const { conn } = await connect(o.globals);
  if (o.secondKey !== undefined && o.secondKey === conn.apiKey)
    throw new UsageError('--second-key is the same key as --api-key', 'give the key of another shop');
  const { nodeTransport } = await import('../../http-transport.js');
  const ca = conn.ca ? readFileSync(conn.ca.path, 'utf8') : undefined;
  return { conn, transport: nodeTransport(ca) };
}

export async function verify(o: VerifyCommandOptions, deps: CommandDeps): Promise<void> {
  const { amount, maxAmount } = checkFlags(o);
  const { conn, transport } = await transportOf(o);
  const { runVerify, UnreachableError, InterruptedError } = await import('../../../verify/index.js');
  // Ctrl+C stops the run before its next request; what it created is cancelled, then it exits 130.
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  const run = (progress?: (text: string) => void) =>
    runVerify({
      baseUrl: conn.baseUrl,
      transport,
      apiKey: conn.apiKey!,
      secondKey: o.secondKey,
      method: o.method,
      currency: o.currency,
      amount,
      maxCreates: o.maxCreates,
      maxAmount,
      progress,
      signal: stop.signal,
    });
  let result;
  try {
    // Progress only on a terminal: piped or captured output gets the report alone.
    const tty = process.stderr.isTTY === true && process.stderr.columns > 0;
    result = tty ? await deps.output.spin(`verifying ${conn.baseUrl}`, (say) => run(say)) : await run();
  } catch (e) {
    if (e instanceof InterruptedError)
      throw new CliError(
        'interrupted (Ctrl+C): the payments verify had created were cancelled',
        EXIT.INTERRUPTED,
        undefined,
        'interrupted',
      );
    if (e instanceof UnreachableError)
      throw new CliError(
        `cannot reach ${conn.baseUrl}: ${e.message}`,
        EXIT.CONNECTION,
        'check --base-url (and --ca for a private certificate)',
        'connection_failed',
      );
    throw e;
  } finally {
    process.off('SIGINT', interrupt);
  }
  const { verifyJson, verifyText, writeVerifyJunit } = await import('../../../verify/report.js');
  if (o.junit) {
    const { mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    mkdirSync(dirname(o.junit), { recursive: true });
    await writeVerifyJunit(result, o.junit);
  }
  if (o.json) deps.output.json(verifyJson(result));
  else {
    const { out } = await import('../../colors.js');
    const colour = (r: string, t: string) => (r === 'passed' ? out.green(t) : r === 'failed' ? out.red(t) : out.dim(t));
    deps.output.print(verifyText(result, colour));
  }
  if (o.junit && !o.json) deps.output.note(`wrote ${o.junit}`);
  const failed = result.rules.filter((r) => r.result === 'failed').length;
  if (failed > 0) throw new CheckFailedError(`${failed} rule${failed === 1 ? '' : 's'} failed against ${conn.baseUrl}`);
}
