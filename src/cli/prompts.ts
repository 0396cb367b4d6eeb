// Required flags: taken from the command line, asked for interactively when stdin and stdout are TTYs,
// otherwise a usage error naming the missing flag. @inquirer/prompts is loaded only when a prompt is shown.
import { UsageError } from './errors.js';

/** The payment methods the gateway documents (spec §2.1). */
export const KNOWN_METHODS = [
  { value: 'WT_RUB_C2C', currency: 'RUB', description: 'card to card, RUB' },
  { value: 'WT_RUB_PHONE', currency: 'RUB', description: 'phone transfer, RUB' },
] as const;

export type FieldKind = 'method' | 'amount' | 'currency' | 'text';

export interface RequiredField {
  /** The option key in commander's opts (camelCase). */
  key: string;
  /** The flag as the user types it, e.g. `--amount`. */
  flag: string;
  kind: FieldKind;
  /** Prompt text. */
  message: string;
}

export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** Validate an amount with the contract's amount rule; returns an error message or undefined. */
export async function amountProblem(value: string): Promise<string | undefined> {
  const { RequestAmount } = await import('../contract/money.js');
  const r = RequestAmount.safeParse(value);
  return r.success ? undefined : (r.error.issues[0]?.message ?? 'is not a valid amount');
}

/** Throw a usage error for every amount flag present in `opts` that breaks the contract's amount rule. */
export async function checkAmounts(opts: Record<string, unknown>, flags: Record<string, string>): Promise<void> {
  for (const [key, flag] of Object.entries(flags)) {
    const v = opts[key];
    if (typeof v !== 'string') continue;
    const problem = await amountProblem(v);
    if (problem) throw new UsageError(`${flag} "${v}" ${problem}`);
  }
}

/**
 * Fill the missing required fields of `opts` in place: prompt on a TTY, else throw
 * `missing required option --amount` (exit 2). Never waits on stdin when it is not a TTY.
 */
export async function fillRequired(opts: Record<string, unknown>, fields: readonly RequiredField[]): Promise<void> {
  const missing = fields.filter((f) => opts[f.key] === undefined || opts[f.key] === '');
  if (missing.length === 0) return;
  if (!canPrompt()) {
    const names = missing.map((f) => f.flag).join(', ');
    throw new UsageError(`missing required option${missing.length > 1 ? 's' : ''} ${names}`, 'pass it on the command line (no TTY, so no prompt)');
  }
  const { select, input } = await import('@inquirer/prompts');
  try {
    for (const f of missing) {
      if (f.kind === 'method') {
        opts[f.key] = await select({
          message: f.message,
          choices: KNOWN_METHODS.map((m) => ({ name: `${m.value}  (${m.description})`, value: m.value })),
        });
      } else if (f.kind === 'amount') {
        opts[f.key] = await input({
          message: f.message,
          validate: async (v) => (await amountProblem(v.trim())) ?? true,
          transformer: (v) => v.trim(),
        }).then((v) => v.trim());
      } else if (f.kind === 'currency') {
        const method = KNOWN_METHODS.find((m) => m.value === opts.method);
        opts[f.key] = await input({
          message: f.message,
          ...(method ? { default: method.currency } : {}),
          validate: (v) => /^[A-Z]{3,5}$/.test(v.trim()) || 'an ISO 4217 code such as RUB',
        }).then((v) => v.trim());
      } else {
        opts[f.key] = await input({ message: f.message, validate: (v) => v.trim() !== '' || 'required' }).then((v) => v.trim());
      }
    }
  } catch (e) {
    if ((e as Error)?.name === 'ExitPromptError') throw new UsageError('cancelled');
    throw e;
  }
}
