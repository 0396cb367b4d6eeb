// How an error message quotes what a request sent: every echoed value goes through `echo` (at most 64 characters,
// then "…"), and a type error names the JSON type that came (`got null`, `got an array`). Imports nothing: the
// contract's schemas, the domain and the HTTP layer all use it.

/** The most characters of a request value an error message repeats. */
export const ECHO_LIMIT = 64;

/** A request value as an error message quotes it: whole up to ECHO_LIMIT characters, else its start and "…". */
export function echo(value: unknown): string {
  const s = typeof value === 'string' ? value : String(value);
  if (s.length <= ECHO_LIMIT) return s;
  const cut = isHighSurrogate(s.charCodeAt(ECHO_LIMIT - 1)) ? ECHO_LIMIT - 1 : ECHO_LIMIT;
  return `${s.slice(0, cut)}…`;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** The JSON type of a parsed value, as a message names it: `null`, `a boolean`, `a number`, `a string`, `an array`, `an object`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'boolean':
      return 'a boolean';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'string':
      return 'a string';
    case 'undefined':
      return 'nothing';
    default:
      return 'an object';
  }
}

/**
 * A schema's type error: `is required` when the field is absent, else what was expected and the JSON type that
 * came, e.g. `expected a decimal string like "100.00", got null`. For zod's `error` option.
 */
export const typeError =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : `expected ${expected}, got ${jsonTypeOf(issue.input)}`;
