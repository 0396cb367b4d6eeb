// `${{ … }}` references inside scenario values: `steps.<id>.<field>` (an earlier step's response), `vars.<name>`,
// `unique.<name>` (a value no other run shares), with an optional leading `-` that negates a decimal.
// A string that is exactly one reference takes the referenced value's type; otherwise the parts are joined as text.
import { Decimal } from 'decimal.js';

export const ROOTS = ['steps', 'vars', 'unique'] as const;
export type Root = (typeof ROOTS)[number];

export interface Reference {
  negate: boolean;
  root: Root;
  /** The dotted path after the root: `['create', 'operation_id']`. */
  path: string[];
  /** The text between the braces, for messages. */
  source: string;
}

/** Resolves a reference to its value; throws a ReferenceError with a readable message when it cannot. */
export type Resolver = (ref: Reference) => unknown;

const TOKEN = /\$\{\{([^}]*)\}\}/g;
const EXPR = /^\s*(-)?\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_$-]+)*)\s*$/;

export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}

/** Parse one expression; throws TemplateError on a malformed one. */
export function parseReference(source: string): Reference {
  const m = EXPR.exec(source);
  if (!m) throw new TemplateError(`\${{${source}}} is not a reference such as \${{ steps.create.operation_id }}`);
  const root = m[2] as Root;
  if (!ROOTS.includes(root))
    throw new TemplateError(`\${{${source}}}: unknown root "${m[2]}" (use steps., vars. or unique.)`);
  const path = m[3] ? m[3].slice(1).split('.') : [];
  if (path.length === 0) throw new TemplateError(`\${{${source}}}: name a field, e.g. \${{ ${root}.name }}`);
  return { negate: m[1] === '-', root, path, source: source.trim() };
}

/** Every reference in a string (static checks: validate finds unknown steps and variables before a run). */
export function referencesIn(text: string): Reference[] {
  const out: Reference[] = [];
  if (text.includes('${{') && !/\$\{\{[^}]*\}\}/.test(text))
    throw new TemplateError(`unclosed \${{ in ${JSON.stringify(text)}`);
  for (const m of text.matchAll(TOKEN)) out.push(parseReference(m[1]!));
  return out;
}

/** Every reference anywhere in a value (strings inside objects and arrays). */
export function referencesDeep(value: unknown): Reference[] {
  if (typeof value === 'string') return referencesIn(value);
  if (Array.isArray(value)) return value.flatMap(referencesDeep);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(referencesDeep);
  return [];
}

function negate(value: unknown, source: string): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') throw new TemplateError(`\${{ ${source} }}: cannot negate ${JSON.stringify(value)}`);
  let d: Decimal;
  try {
    d = new Decimal(text);
  } catch {
    throw new TemplateError(`\${{ ${source} }}: cannot negate ${JSON.stringify(text)}, not a decimal`);
  }
  const places = /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
  return d.isZero() ? d.abs().toFixed(places) : d.neg().toFixed(places);
}

function evaluate(ref: Reference, resolve: Resolver): unknown {
  const value = resolve(ref);
  return ref.negate ? negate(value, ref.source) : value;
}

/** Replace every reference in a string. */
export function interpolateString(text: string, resolve: Resolver): unknown {
  if (!text.includes('${{')) return text;
  const whole = /^\$\{\{([^}]*)\}\}$/.exec(text);
  if (whole) return evaluate(parseReference(whole[1]!), resolve);
  referencesIn(text);
  return text.replace(TOKEN, (_m, src: string) => {
    const v = evaluate(parseReference(src), resolve);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

/** Replace every reference anywhere in a value; objects and arrays are copied. */
export function interpolate(value: unknown, resolve: Resolver): unknown {
  if (typeof value === 'string') return interpolateString(value, resolve);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, resolve));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, resolve)]));
  }
  return value;
}

/** A dotted path into a JSON value: `receipts.0.receipt_url`. */
export function getPath(root: unknown, path: readonly string[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, seg)) return { found: false, value: undefined };
    cur = (cur as Record<string, unknown>)[seg];
  }
  return { found: true, value: cur };
}
