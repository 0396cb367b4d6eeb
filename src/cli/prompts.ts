// Required flags: taken from the command line, asked for interactively when stdin and stdout are TTYs,
// otherwise a usage error naming the missing flag. @inquirer/prompts is loaded only when a prompt is shown.
import { readFile } from 'node:fs/promises';
import { InterruptedError, UsageError } from './errors.js';

/** The payment methods the gateway documents (spec §2.1). */
export const KNOWN_METHODS = [
  { value: 'WT_RUB_C2C', currency: 'RUB', description: 'card to card, RUB' },
  { value: 'WT_RUB_PHONE', currency: 'RUB', description: 'phone transfer, RUB' },
] as const;

export type FieldKind = 'method' | 'amount' | 'currency' | 'bank' | 'text';

export interface RequiredField<K extends string = string> {
  /** The field of the command's options (camelCase). */
  key: K;
  /** The flag as the user types it, e.g. `--amount`. */
  flag: string;
  kind: FieldKind;
  /** Prompt text. */
  message: string;
}

export const METHOD_FIELD: RequiredField<'method'> = {
  key: 'method',
  flag: '--method',
  kind: 'method',
  message: 'Payment method',
};
export const CURRENCY_FIELD: RequiredField<'currency'> = {
  key: 'currency',
  flag: '--currency',
  kind: 'currency',
  message: 'Currency (ISO 4217)',
};
export const AMOUNT_FIELD: RequiredField<'amount'> = {
  key: 'amount',
  flag: '--amount',
  kind: 'amount',
  message: 'Amount (e.g. 1500.00)',
};
export const NUMBER_FIELD: RequiredField<'number'> = {
  key: 'number',
  flag: '--number',
  kind: 'text',
  message: 'Destination number (card number; phone number for WT_RUB_PHONE)',
};
export const BANKNAME_FIELD: RequiredField<'bankname'> = {
  key: 'bankname',
  flag: '--bankname',
  kind: 'bank',
  message: 'Destination bank',
};

/** Which required flags this process took from the command line and which it asked for (for the error's hint). */
const filledBy = { flag: new Set<string>(), prompt: new Set<string>() };

/** The required flags given on the command line and those typed at a prompt, in this process so far. */
export function requiredFlagSources(): { given: string[]; prompted: string[] } {
  return { given: [...filledBy.flag], prompted: [...filledBy.prompt] };
}

/** A bank of the sandbox world's dictionary. */
export interface Bank {
  code: string;
  name: string;
  currency: string;
}

/**
 * The banks of `currency` in the world the sandbox loads by default: PAYGATE_FIXTURES when set (as `sandbox start`
 * reads it), else the bundled fixtures/default.json. Empty when the file cannot be read.
 */
export async function worldBanks(currency: string | undefined): Promise<Bank[]> {
  const file = process.env.PAYGATE_FIXTURES || new URL('../../fixtures/default.json', import.meta.url);
  try {
    const world = JSON.parse(await readFile(file, 'utf8')) as { banks?: Bank[] };
    return (world.banks ?? []).filter((b) => currency === undefined || b.currency === currency);
  } catch {
    return [];
  }
}

/** The choice of the bank list that asks for a code instead (a sandbox started with other fixtures). */
const OTHER_BANK = '\0other';

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
export async function checkAmounts<O extends object>(
  options: O,
  flags: Partial<Record<keyof O & string, string>>,
): Promise<void> {
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
  for (const f of fields) if (!missing.includes(f)) filledBy.flag.add(f.flag);
  if (missing.length === 0) return filled as Filled<O, K>;
  if (!interactive) {
    const names = missing.map((f) => f.flag).join(', ');
    throw new UsageError(
      `missing required option${missing.length > 1 ? 's' : ''} ${names}`,
      'pass it on the command line (no TTY, so no prompt)',
    );
  }
  for (const f of missing) filled[f.key] = await askFor(f, filled);
  return filled as Filled<O, K>;
}

/**
 * Ask for one field on the terminal (the caller checked that there is one), e.g. again after the gateway refused the
 * first answer. `context` holds the fields known so far (the method and currency decide the defaults and the banks).
 * Ctrl+C is an InterruptedError (exit 130).
 */
export async function askFor(f: RequiredField, context: Record<string, unknown>): Promise<string> {
  try {
    const answer = await ask(f, context.method, typeof context.currency === 'string' ? context.currency : undefined);
    filledBy.prompt.add(f.flag);
    return answer;
  } catch (e) {
    if ((e as Error)?.name === 'ExitPromptError') throw new InterruptedError();
    throw e;
  }
}

/** Ask for one field; the currency defaults to the chosen method's, a bank is picked from the world's list. */
async function ask(f: RequiredField, method: unknown, currency: string | undefined): Promise<string> {
  const { select, input } = await import('@inquirer/prompts');
  if (f.kind === 'bank') {
    const banks = await worldBanks(currency ?? KNOWN_METHODS.find((m) => m.value === method)?.currency);
    const picked =
      banks.length === 0
        ? OTHER_BANK
        : await select({
            message: f.message,
            choices: [
              ...banks.map((b) => ({ name: `${b.code.padEnd(8)} ${b.name}`, value: b.code })),
              { name: 'another bank code…', value: OTHER_BANK },
            ],
          });
    if (picked !== OTHER_BANK) return picked;
    return (
      await input({ message: `${f.message} code (e.g. sber)`, validate: (v) => v.trim() !== '' || 'required' })
    ).trim();
  }
  if (f.kind === 'method') {
    return select({
      message: f.message,
      choices: KNOWN_METHODS.map((m) => ({ name: `${m.value}  (${m.description})`, value: m.value })),
    });
  }
  if (f.kind === 'amount') {
    const v = await input({
      message: f.message,
      validate: async (v) => (await amountProblem(v.trim())) ?? true,
      transformer: (v) => v.trim(),
    });
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
