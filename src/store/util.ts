// Small helpers shared by the snapshot, journal and lock modules: error codes and describing parsed JSON.

/** The `code` of a Node.js system error (ENOENT, EEXIST, ...), or undefined. */
export function errno(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A short description of a JSON value for an error message: `null`, `an array`, `"text…"`, `number 3`. */
export function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  return typeof x === 'object' ? 'an object' : `${typeof x} ${String(x)}`;
}
