// Required flags: taken from the command line, asked for interactively when stdin and stdout are TTYs,
// otherwise a usage error naming the missing flag. @inquirer/prompts is loaded only when a prompt is shown.
import { InterruptedError, UsageError } from './errors.js';

/** The payment methods the gateway documents (spec §2.1). */
export const KNOWN_METHODS = [
  { value: 'WT_RUB_C2C', currency: 'RUB', description: 'card to card, RUB' },
  { value: 'WT_RUB_PHONE', currency: 'RUB', description: 'phone transfer, RUB' },
] as const;

export type FieldKind = 'method' | 'amount' | 'currency' | 'text';

export interface RequiredField<K extends string = string> {
  /** The field of the command's options (camelCase). */
  key: K;
  /** The flag as the user types it, e.g. `--amount`. */
  flag: string;
  kind: FieldKind;
  /** Prompt text. */
  message: string;
}

export const METHOD_FIELD: RequiredField<'method'> = { key: 'method', flag: '--method', kind: 'method', message: 'Payment method' };
export const CURRENCY_FIELD: RequiredField<'currency'> = { key: 'currency', flag: '--currency', kind: 'currency', message: 'Currency (ISO 4217)' };
export const AMOUNT_FIELD: RequiredField<'amount'> = { key: 'amount', flag: '--amount', kind: 'amount', message: 'Amount (e.g. 1500.00)' };
export const NUMBER_FIELD: RequiredField<'number'> = { key: 'number', flag: '--number', kind: 'text', message: 'Destination number (card number; phone number for WT_RUB_PHONE)' };
export const BANKNAME_FIELD: RequiredField<'bankname'> = { key: 'bankname', flag: '--bankname', kind: 'text', message: 'Destination bank code (e.g. sber, tcs)' };

/** Options with the required fields `K` present: given on the command line (as parsed) or typed at the prompt. */
export type Filled<O, K extends keyof O> = Omit<O, K> & { [P in K]-?: NonNullable<O[P]> | string };

export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** Validate an amount with the contract's amount rule; returns an error message or undefined. */
export async function amountProblem(value: string): Promise<string | undefined> {
  const { RequestAmount } = await import('../contract/money.js');
  const r = RequestAmount.safeParse(value);
  return r.success ? undefined : (r.error.issues[0]?.message ?? 'is not a valid amount');
}

/** Throw a usage error for every amount field present in `options` that breaks the contract's amount rule. */
export async function checkAmounts<O extends object>(options: O, flags: Partial<Record<keyof O & string, string>>): Promise<void> {
  const values = options as Record<string, unknown>;
  for (const [key, flag] of Object.entries(flags) as [string, string][]) {
    const v = values[key];
    if (typeof v !== 'string') continue;
    const problem = await amountProblem(v);
    if (problem) throw new UsageError(`${flag} "${v}" ${problem}`);
  }
}

/**
 * The options with the missing required fields filled: asked for when `interactive` (stdin and stdout are TTYs),
 * else `missing required option --amount` (exit 2). Never waits on stdin when it is not a TTY. Ctrl+C at a prompt
 * is an InterruptedError (exit 130).
 */
export async function fillRequired<O extends object, K extends keyof O & string>(
  options: O,
  fields: readonly RequiredField<K>[],
  interactive: boolean,
): Promise<Filled<O, K>> {
  const filled: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  const missing = fields.filter((f) => filled[f.key] === undefined || filled[f.key] === '');
  if (missing.length === 0) return filled as Filled<O, K>;
  if (!interactive) {
    const names = missing.map((f) => f.flag).join(', ');
    throw new UsageError(`missing required option${missing.length > 1 ? 's' : ''} ${names}`, 'pass it on the command line (no TTY, so no prompt)');
  }
  try {
    for (const f of missing) filled[f.key] = await ask(f, filled.method);
  } catch (e) {
    if ((e as Error)?.name === 'ExitPromptError') throw new InterruptedError();
    throw e;
  }
  return filled as Filled<O, K>;
}

/** Ask for one field; the currency defaults to the chosen method's. */
async function ask(f: RequiredField, method: unknown): Promise<string> {
  const { select, input } = await import('@inquirer/prompts');
  if (f.kind === 'method') {
    return select({
      message: f.message,
      choices: KNOWN_METHODS.map((m) => ({ name: `${m.value}  (${m.description})`, value: m.value })),
    });
  }
  if (f.kind === 'amount') {
    const v = await input({ message: f.message, validate: async (v) => (await amountProblem(v.trim())) ?? true, transformer: (v) => v.trim() });
    return v.trim();
  }
  if (f.kind === 'currency') {
    const known = KNOWN_METHODS.find((m) => m.value === method);
    const v = await input({
      message: f.message,
      ...(known ? { default: known.currency } : {}),
      validate: (v) => /^[A-Z]{3,5}$/.test(v.trim()) || 'an ISO 4217 code such as RUB',
    });
    return v.trim();
  }
  return (await input({ message: f.message, validate: (v) => v.trim() !== '' || 'required' })).trim();
}
