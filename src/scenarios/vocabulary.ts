// The step vocabulary of scenarios: every row of the gateway's endpoint table and of the sandbox's control table,
// keyed by its stable dotted id (`payment.create`, `operations.pay`, `clock.advance`), with the request field names
// a step's `with:` may carry and where each goes (path, query, JSON body or multipart form). Nothing here is written
// by hand per endpoint: a new row of either table is callable from a scenario at once.
import { z } from 'zod';
import { sandboxControls } from '../contract/controls.js';
import { endpoints } from '../contract/endpoints.js';
import { successStatus, type Credential, type HttpMethod, type EndpointRow } from '../contract/endpoint-row.js';

/** Where a field of `with:` is sent. */
export type FieldPlace = 'path' | 'query' | 'body' | 'form' | 'file';

export interface StepField {
  place: FieldPlace;
  description?: string | undefined;
}

/** One callable row, as the runner sends it. */
export interface Callable {
  /** The dotted id, e.g. `payment.create`. */
  id: string;
  method: HttpMethod;
  path: string;
  summary: string;
  auth: Credential;
  /** The status of a successful answer (200, 201 or 204). */
  okStatus: number;
  /** Whether the body is multipart/form-data (payment.confirm). */
  multipart: boolean;
  fields: Record<string, StepField>;
  response: z.ZodType | undefined;
  /** The table it comes from. */
  table: 'gateway' | 'sandbox';
}

/** The keys of an object schema (refinements and `.meta()` keep the ZodObject). */
function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (schema instanceof z.ZodPipe) return shapeOf(schema.in as z.ZodType);
  return {};
}

function describe(schema: z.ZodType): string | undefined {
  return (
    z.globalRegistry.get(schema)?.description ??
    (schema instanceof z.ZodOptional ? describe(schema.unwrap() as z.ZodType) : undefined)
  );
}

function fieldsOf(row: EndpointRow & { multipart?: z.ZodType }): Record<string, StepField> {
  const out: Record<string, StepField> = {};
  const add = (schema: z.ZodType | undefined, place: FieldPlace) => {
    for (const [name, s] of Object.entries(shapeOf(schema))) out[name] ??= { place, description: describe(s) };
  };
  add(row.params, 'path');
  add(row.query, 'query');
  add(row.body, row.method === 'GET' ? 'query' : 'body');
  if (row.multipart) {
    for (const [name, s] of Object.entries(shapeOf(row.multipart))) {
      const binary = (z.globalRegistry.get(s) as { format?: string } | undefined)?.format === 'binary';
      out[name] ??= { place: binary ? 'file' : 'form', description: describe(s) };
    }
  }
  return out;
}

function callable(row: EndpointRow & { multipart?: z.ZodType }, table: Callable['table']): Callable {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    summary: row.summary,
    auth: row.auth,
    okStatus: successStatus(row),
    multipart: row.multipart !== undefined,
    fields: fieldsOf(row),
    response: row.response,
    table,
  };
}

/** Every callable id, gateway endpoints first, in table order. */
export const VOCABULARY: ReadonlyMap<string, Callable> = new Map(
  [
    ...Object.values(endpoints).map((row) => callable(row, 'gateway')),
    // Streams (server-sent events) never end by themselves: not a step.
    ...Object.values(sandboxControls)
      .filter((row) => !('stream' in row))
      .map((row) => callable(row, 'sandbox')),
  ].map((c) => [c.id, c]),
);

export function callableOf(id: string): Callable | undefined {
  return VOCABULARY.get(id);
}

/** The known ids closest to a misspelt one (same prefix or small edit distance), for error messages. */
export function suggest(id: string): string[] {
  const ids = [...VOCABULARY.keys()];
  const scored = ids
    .map((k) => ({ k, d: distance(id, k) }))
    .filter((s) => s.d <= Math.max(2, Math.floor(id.length / 3)));
  const prefix = ids.filter((k) => id.includes('.') && k.startsWith(id.split('.')[0]! + '.'));
  return [...new Set([...scored.sort((a, b) => a.d - b.d).map((s) => s.k), ...prefix])].slice(0, 4);
}

/** Edit distance (Levenshtein), for suggestions. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The table of every step id and its `with:` fields, embedded in docs/scenarios.md (npm run docs). */
export function renderVocabulary(): string {
  const rows = [...VOCABULARY.values()].map((c) => {
    const fields = Object.entries(c.fields)
      .filter(([name]) => name !== 'merchant_id' && name !== 'shop_id')
      .map(([name, f]) =>
        f.place === 'path' ? `\`${name}\` (path)` : f.place === 'file' ? `\`${name}\` (file)` : `\`${name}\``,
      );
    const cred =
      c.auth === 'key'
        ? 'shop key'
        : c.auth === 'admin'
          ? 'admin token'
          : c.auth === 'support'
            ? 'shop key (or admin token)'
            : 'none';
    return `| \`${c.id}\` | ${c.method} \`${c.path}\` | ${cred} | ${fields.join(', ') || '—'} | ${c.summary} |`;
  });
  return ['| id | HTTP | credential | `with:` fields | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}
