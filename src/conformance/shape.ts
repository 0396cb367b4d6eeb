// An answer against its zod schema of the contract, field by field: what is missing, what the contract does not
// know, and what has the wrong type or format — including the documented patterns and formats (the OpenAPI
// document's `pattern`, `date-time`) the schemas only carry as metadata.
import { z } from 'zod';

export interface ShapeIssue {
  kind: 'missing' | 'unknown' | 'format';
  /** Dotted path of the field ('' for the body itself). */
  path: string;
  /** What the contract expects there. */
  expected: string;
  got: unknown;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

// RFC 3339 date-time (the sandbox and the spec's timestamps).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const patterns = new WeakMap<z.ZodType, { pattern?: RegExp; dateTime: boolean; label: string }>();

/** The documented pattern and format of a leaf schema (memoised per schema). */
function docOf(s: z.ZodType) {
  let d = patterns.get(s);
  if (!d) {
    const meta = z.globalRegistry.get(s) as { pattern?: string; format?: string; description?: string } | undefined;
    const pattern = meta?.pattern ? new RegExp(meta.pattern) : undefined;
    const dateTime = meta?.format === 'date-time';
    const label = dateTime
      ? 'an RFC 3339 timestamp'
      : pattern
        ? `a string matching ${meta!.pattern}`
        : `${defOf(s).type === 'enum' ? 'one of the values of the enum' : `a ${defOf(s).type}`}`;
    d = { ...(pattern ? { pattern } : {}), dateTime, label };
    patterns.set(s, d);
  }
  return d;
}

const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

/** Whether the schema accepts an absent value. */
const optional = (s: z.ZodType): boolean => defOf(s).type === 'optional' || defOf(s).type === 'default';

/** Every issue of `value` against `schema`, appended to `out`. Arrays are checked up to their first 256 items. */
export function shapeIssues(schema: z.ZodType, value: unknown, path = '', out: ShapeIssue[] = []): ShapeIssue[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      if (value !== undefined) shapeIssues(def.innerType!, value, path, out);
      return out;
    case 'nullable':
      if (value !== null) shapeIssues(def.innerType!, value, path, out);
      return out;
    case 'object':
      objectIssues(def.shape!, value, path, out);
      return out;
    case 'array':
      if (!Array.isArray(value)) out.push({ kind: 'format', path, expected: 'an array', got: value });
      else for (let i = 0; i < value.length && i < 256; i++) shapeIssues(def.element!, value[i], join(path, i), out);
      return out;
    case 'union':
      out.push(...bestOption(def.options!, value, path));
      return out;
    default:
      leafIssues(schema, value, path, out);
      return out;
  }
}

function objectIssues(shape: Record<string, z.ZodType>, value: unknown, path: string, out: ShapeIssue[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    out.push({ kind: 'format', path, expected: 'an object', got: value });
    return;
  }
  const v = value as Record<string, unknown>;
  for (const key in shape) {
    const field = shape[key]!;
    if (v[key] === undefined) {
      if (!optional(field)) out.push({ kind: 'missing', path: join(path, key), expected: 'present', got: undefined });
    } else shapeIssues(field, v[key], join(path, key), out);
  }
  for (const key in v) {
    if (!Object.hasOwn(shape, key))
      out.push({ kind: 'unknown', path: join(path, key), expected: 'no such field', got: v[key] });
  }
}

/** A union's issues: those of the option that fits best (fewest issues). */
function bestOption(options: z.ZodType[], value: unknown, path: string): ShapeIssue[] {
  let best: ShapeIssue[] | undefined;
  for (const o of options) {
    const issues = shapeIssues(o, value, path);
    if (!best || issues.length < best.length) best = issues;
    if (issues.length === 0) break;
  }
  return best ?? [];
}

function leafIssues(schema: z.ZodType, value: unknown, path: string, out: ShapeIssue[]): void {
  const doc = docOf(schema);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    out.push({ kind: 'format', path, expected: parsed.error.issues[0]?.message ?? doc.label, got: value });
    return;
  }
  if (typeof value !== 'string') return;
  if (doc.pattern && !doc.pattern.test(value)) out.push({ kind: 'format', path, expected: doc.label, got: value });
  else if (doc.dateTime && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value))))
    out.push({ kind: 'format', path, expected: doc.label, got: value });
}
