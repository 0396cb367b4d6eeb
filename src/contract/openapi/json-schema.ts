// zod → the JSON Schemas of the OpenAPI document: registered schemas become components, the rest is inlined; every
// schema is cleaned for the tools people import the document into (no `$schema`, no `not: {}` properties).
import { z } from 'zod';

export type Json = Record<string, unknown>;

export const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** Text added to an object that refuses fields: what is refused and why. */
const refusedText = (names: readonly string[]) =>
  `${names.map((n) => `\`${n}\``).join(' and ')} must not be sent (400 validation_error): the API key fixes the merchant and the shop.`;

/** The identifiers of which a request must carry exactly one (spec §4.6, §4.7), by component id. */
const EXACTLY_ONE_OF: Record<string, readonly string[]> = {
  GetOperationStateRequest: ['operation_id', 'merchant_operation_id'],
  CancelOperationRequest: ['operation_id', 'merchant_operation_id'],
};

/** A field that must not be sent: zod's `never` (optional) is `{ not: {} }`. */
function isRefused(s: unknown): boolean {
  const not = (s as Json | undefined)?.not;
  return typeof not === 'object' && not !== null && Object.keys(not).length === 0;
}

function withText(description: unknown, text: string): string {
  return typeof description === 'string' && description ? `${description} ${text}` : text;
}

/**
 * Clean a generated schema in place, depth first: drop `$schema`/`$id`; add `example`; turn refused properties into
 * `propertyNames: { not: { enum } }` (converters would fill in a `not: {}` property, and generated types make it
 * `unknown`, so a body carrying it compiles).
 */
export function clean(node: unknown): unknown {
  if (Array.isArray(node)) {
    node.forEach(clean);
    return node;
  }
  if (typeof node !== 'object' || node === null) return node;
  const s = node as Json;
  delete s.$schema;
  delete s.$id;
  if (s.$defs)
    throw new Error(
      `a nested zod schema with an id was inlined as $defs: register the outer schema too (${Object.keys(s.$defs as Json).join(', ')})`,
    );
  for (const v of Object.values(s)) clean(v);
  // OpenAPI 3.0's `example` beside 3.1's `examples`: converters (openapi-to-postmanv2 for form fields) read only it.
  if (Array.isArray(s.examples) && s.examples.length > 0 && s.example === undefined) s.example = s.examples[0];
  const props = s.properties as Json | undefined;
  if (props) {
    const refused = Object.keys(props).filter((k) => isRefused(props[k]));
    for (const k of refused) delete props[k];
    if (refused.length > 0) {
      s.propertyNames = { not: { enum: refused } };
      s.description = withText(s.description, refusedText(refused));
    }
  }
  return s;
}

/** `{ a?, b?, …rest }` where exactly one of a, b is required → `oneOf` of one variant per identifier. */
function exactlyOneOf(s: Json, ids: readonly string[]): Json {
  const {
    description,
    properties,
    required = [],
    type: _type,
    ...rest
  } = s as Json & { properties: Json; required?: string[] };
  const variants = ids.map((id) => {
    const props = Object.fromEntries(Object.entries(properties).filter(([k]) => k === id || !ids.includes(k)));
    return { title: `By ${id}`, type: 'object', properties: props, required: [id, ...required], ...rest };
  });
  return { description, oneOf: variants };
}

/** Every schema registered with an id, cleaned; the two identifier requests as `oneOf`. */
export function componentSchemas(): Record<string, Json> {
  const registered = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    io: 'input',
  }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, s] of Object.entries(registered.schemas)) {
    const cleaned = clean(s) as Json;
    const ids = EXACTLY_ONE_OF[id];
    out[id] = ids ? exactlyOneOf(cleaned, ids) : cleaned;
  }
  return out;
}

/** A schema: its component when registered with an id, else inline. */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return ref(id);
  return clean(z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' })) as Json;
}

/** The parameters of a query or path schema (an object): one per field; refused fields are left out. */
export function parametersOf(schema: z.ZodType, where: 'query' | 'path'): Json[] {
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  const out: Json[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const json = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as Json;
    if (isRefused(json)) continue;
    const { description, ...rest } = clean(json) as Json;
    // A path id is never empty (`/sandbox/operations/` is no id: the server answers 404).
    if (where === 'path' && rest.type === 'string' && rest.minLength === undefined) rest.minLength = 1;
    const required = where === 'path' || !field.safeParse(undefined).success;
    out.push({ name, in: where, required, ...(description ? { description } : {}), schema: rest });
  }
  return out;
}

/**
 * Keep only the components the document reaches from `roots` (paths, webhooks), following $refs transitively, in
 * the order of their ids: zod's registry holds them in the order the modules were loaded, which differs between the
 * CLI's bundle and the modules (`paygate openapi` and docs/openapi.json must be the same bytes).
 */
export function reachable(schemas: Record<string, Json>, roots: unknown): Record<string, Json> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const r = (node as Json).$ref;
    if (typeof r === 'string' && r.startsWith('#/components/schemas/')) {
      const id = r.slice('#/components/schemas/'.length);
      if (!seen.has(id)) {
        seen.add(id);
        visit(schemas[id]);
      }
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(roots);
  const ids = Object.keys(schemas).filter((id) => seen.has(id));
  return Object.fromEntries(ids.sort().map((id) => [id, schemas[id]!]));
}
