// A 400 without a hint of its own never says "check the flags" when no flag was used: after values typed at a
// prompt it names them, after positional arguments only it says so. In a file of its own: which flags were
// prompted for is kept per process.
import { describe, expect, it, vi } from 'vitest';
import { APIError } from '../../src/client/errors.js';
import { AMOUNT_FIELD, fillRequired, NUMBER_FIELD } from '../../src/cli/prompts.js';
import { describeError } from '../../src/cli/report-error.js';

const prompts = vi.hoisted(() => ({ input: vi.fn(), select: vi.fn(), confirm: vi.fn() }));
vi.mock('@inquirer/prompts', () => prompts);

const refused = () =>
  APIError.from({
    status: 400,
    endpoint: 'POST /v1/payout',
    headers: {},
    body: { code: 'validation_error', message: 'number: not a card number' },
  });

describe('the hint of a 400 without one of its own', () => {
  it('flags given: check the flags; only arguments: check the arguments', () => {
    expect(describeError(refused(), { flagsGiven: true }).hint).toBe('check the flags (see --help)');
    expect(describeError(refused(), { flagsGiven: false }).hint).toBe('check the arguments (see --help)');
  });

  it('values typed at a prompt, no flag: names the prompted flags, not "the flags"', async () => {
    prompts.input.mockResolvedValueOnce('100.00').mockResolvedValueOnce('1234');
    await fillRequired<{ amount?: string; number?: string }, 'amount' | 'number'>(
      {},
      [AMOUNT_FIELD, NUMBER_FIELD],
      true,
    );
    const hint = describeError(refused(), { flagsGiven: false }).hint;
    expect(hint).toBe('check what was typed at the prompt for --amount, --number');
    expect(hint).not.toContain('flags');
  });

  it('some typed at the prompt, some given as flags: both', async () => {
    prompts.input.mockResolvedValueOnce('1234');
    await fillRequired<{ amount?: string; number?: string }, 'amount' | 'number'>(
      { amount: '100.00' },
      [AMOUNT_FIELD, NUMBER_FIELD],
      true,
    );
    expect(describeError(refused(), { flagsGiven: true }).hint).toBe(
      'check what was typed at the prompt for --amount, --number, and the flags given (see --help)',
    );
  });
});
