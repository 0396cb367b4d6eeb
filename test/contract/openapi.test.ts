// The committed docs/openapi.json is exactly what the contract generates (no drift), and it says what the emulator
// does as strictly as the spec: forbidden fields as forbidden property names (never `not: {}` properties), exactly
// one identifier as `oneOf`, amount and UUID patterns that agree with the zod checks, examples on every request field,
// the limits, per-endpoint responses with their headers, and the webhook events.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  buildOpenApiDocument,
  endpoints,
  MAX_INTERVALS,
  MAX_RECOMMENDATIONS,
  operationIdOf,
  OperationStatus,
  RequestAmount,
  sandboxControls,
  Uuid,
  WebhookEvent,
  WebhookEventType,
} from '../../src/contract/index.js';
import { EXAMPLE_OPERATION_ID, REQUEST_EXAMPLES, type NamedExample } from '../../src/contract/openapi/examples.js';
import { operationIdFor } from '../../src/domain/ids.js';
import { MAX_INTERVALS as DOMAIN_MAX_INTERVALS } from '../../src/domain/pool.js';
import type { WebhookEvent as VerifiedEvent } from '../../src/webhooks/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApiDocument(pkg.version) as Json;
const schemas = doc.components.schemas as Record<string, Json>;
const opOf = (path: string, method: string): Json =>
  doc.paths[path.replace(/:([a-z_]+)/g, '{$1}')][method.toLowerCase()];
const deref = (s: Json): Json => (s.$ref ? schemas[String(s.$ref).split('/').pop()!]! : s);
const bodySchema = (op: Json): Json | undefined => {
  const content = op.requestBody?.content;
  return content && deref((content['application/json'] ?? content['multipart/form-data']).schema);
};
/** Every object node of a JSON value, depth first. */
const nodes = (v: unknown, out: Json[] = []): Json[] => {
  if (Array.isArray(v)) v.forEach((x) => nodes(x, out));
  else if (v && typeof v === 'object') {
    out.push(v as Json);
    Object.values(v).forEach((x) => nodes(x, out));
  }
  return out;
};
/** The variants of a request schema: its `oneOf`, or itself. */
const variants = (s: Json): Json[] => (s.oneOf ? (s.oneOf as Json[]) : [s]);

describe('OpenAPI document', () => {
  it('matches the committed docs/openapi.json (run `npm run docs` after changing the contract)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(doc);
  });

  it('covers every endpoint of the spec, with error responses, a description and a declared tag', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    const declared = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const e of Object.values(endpoints)) {
      const op = opOf(e.path, e.method);
      expect(op?.operationId, e.path).toBe(operationIdOf(e));
      expect(op['x-paygate-id']).toBe(e.id);
      expect(op.description.length, e.id).toBeGreaterThan(40);
      expect(op.tags).toHaveLength(1);
      expect(declared.has(op.tags[0]), op.tags[0]).toBe(true);
      for (const s of e.errors) expect(op.responses[String(s)], `${e.path} ${s}`).toBeDefined();
    }
    expect(opOf('/v1/payment', 'POST').tags).toEqual(['payments']);
    expect(opOf('/v1/payment/availability', 'GET').tags).toEqual(['amounts']);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/sandbox/'))).toHaveLength(13);
  });

  it('lists every sandbox control under the sandbox tag, with its credential, dotted id and success status', () => {
    expect(doc.components.securitySchemes.AdminToken?.name).toBe('X-Admin-Token');
    for (const c of Object.values(sandboxControls)) {
      const op = opOf(c.path, c.method);
      expect(op?.operationId, c.id).toBe(operationIdOf(c));
      expect(op['x-paygate-id']).toBe(c.id);
      expect(op.tags).toEqual(['sandbox']);
      expect(op.description).toContain('not part of the gateway');
      const security = {
        admin: [{ AdminToken: [] }],
        key: [{ ApiKey: [] }],
        support: [{ AdminToken: [] }, { ApiKey: [] }],
      } as Record<string, unknown>;
      expect(op.security).toEqual(security[c.auth]);
      expect(op.responses[String('status' in c ? c.status : 200)], c.id).toBeDefined();
      for (const s of c.errors) expect(op.responses[String(s)], `${c.id} ${s}`).toBeDefined();
    }
  });

  it('resolves every $ref, and every component is used', () => {
    const text = JSON.stringify(doc);
    const refs = text.match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(schemas).toHaveProperty(r.slice(22, -1));
    for (const id of Object.keys(schemas)) expect(text, id).toContain(`"#/components/schemas/${id}"`);
  });

  it('has no `$schema` keyword and no `not: {}` property anywhere', () => {
    for (const n of nodes(doc)) {
      expect(n).not.toHaveProperty('$schema');
      for (const [k, p] of Object.entries((n.properties ?? {}) as Json)) expect(p?.not, k).toBeUndefined();
    }
  });

  it('forbids merchant_id and shop_id in every gateway request by property name, and has no property for them', () => {
    for (const e of Object.values(endpoints)) {
      const op = opOf(e.path, e.method);
      const body = bodySchema(op);
      for (const v of body ? variants(body) : []) {
        expect(v.propertyNames, e.id).toEqual({ not: { enum: ['merchant_id', 'shop_id'] } });
        expect(Object.keys(v.properties), e.id).not.toContain('merchant_id');
        expect(Object.keys(v.properties), e.id).not.toContain('shop_id');
      }
      for (const p of (op.parameters ?? []) as Json[]) expect(['merchant_id', 'shop_id'], e.id).not.toContain(p.name);
      if (body || op.parameters) expect(op.description, e.id).toContain('merchant_id and shop_id are refused (400)');
    }
  });

  it('has exactly one identifier per variant of get_operation_state and cancel_operation (oneOf)', () => {
    for (const id of ['GetOperationStateRequest', 'CancelOperationRequest']) {
      const v = schemas[id]!.oneOf as Json[];
      expect(v.map((x) => x.required)).toEqual([['operation_id'], ['merchant_operation_id']]);
      expect(Object.keys(v[0]!.properties)).not.toContain('merchant_operation_id');
      expect(Object.keys(v[1]!.properties)).not.toContain('operation_id');
    }
    expect(Object.keys(schemas.CancelOperationRequest!.oneOf[1].properties)).toContain('reason');
  });

  it('documents request amounts and UUIDs with patterns that agree with the zod checks', () => {
    const amount = new RegExp(schemas.CreateOperationRequest!.properties.amount.pattern, 'u');
    const uuid = new RegExp(schemas.ConfirmPaymentRequest!.properties.operation_id.pattern, 'u');
    for (const s of ['0', '0.0', '0.00', '00.10', '-1.00', '1.234', '1e3', '']) expect(amount.test(s), s).toBe(false);
    for (const s of ['0.01', '0.1', '0.10', '1', '1500.00', '999999999999999999.99'])
      expect(amount.test(s), s).toBe(true);
    const agree = (schema: z.ZodType, pattern: RegExp) => (s: string) =>
      pattern.test(s) === schema.safeParse(s).success;
    const amountish = fc.stringMatching(/^-?[0-9]{0,4}(\.[0-9]{0,3})?$/);
    fc.assert(fc.property(amountish, agree(RequestAmount, amount)), { numRuns: 2000 });
    expect(uuid.test('1B971A67-1723-5D72-9A5C-ED5BA1404FD6')).toBe(true);
    fc.assert(
      fc.property(
        fc.uuid().map((u) => u.toUpperCase()),
        agree(Uuid, uuid),
      ),
    );
  });

  it('gives every amount of the wire a decimal pattern, signed only where the spec allows a sign', () => {
    const signed = new Set(['balance', 'settlement_amount', 'delta']);
    let seen = 0;
    for (const n of nodes(schemas)) {
      for (const [k, p] of Object.entries((n.properties ?? {}) as Json)) {
        if (!/(^|_)amount$|^balance$|^current_minus$|^reserved$|^delta$|^claimed$|^paid$|^free(_total)?$/.test(k))
          continue;
        const s = (p.anyOf as Json[] | undefined)?.find((x) => x.type === 'string') ?? p;
        if (s.type !== 'string') continue;
        seen++;
        expect(s.pattern, k).toMatch(/^\^/);
        expect(String(s.pattern).startsWith('^-?'), k).toBe(signed.has(k));
      }
    }
    expect(seen).toBeGreaterThan(20);
  });

  it('states the limits: 200 intervals, 10 recommendations, a 2048 reason, receipt_url a URI', () => {
    expect(MAX_INTERVALS).toBe(DOMAIN_MAX_INTERVALS);
    expect(schemas.AvailabilityResponse!.properties.intervals.maxItems).toBe(200);
    expect(schemas.RecommendationsResponse!.properties.intervals.maxItems).toBe(200);
    expect(schemas.RecommendationsResponse!.properties.recommendations.maxItems).toBe(MAX_RECOMMENDATIONS);
    expect(schemas.RecommendationsRequest!.properties.limit.maximum).toBe(10);
    expect(schemas.CancelOperationRequest!.oneOf[0].properties.reason.maxLength).toBe(2048);
    expect(schemas.Receipt!.properties.receipt_url.format).toBe('uri');
  });

  it('gives every request field of the gateway an example (enums and files excepted)', () => {
    for (const e of Object.values(endpoints)) {
      const op = opOf(e.path, e.method);
      const body = bodySchema(op);
      const fields: [string, Json][] = [
        ...(body ? variants(body).flatMap((v) => Object.entries(v.properties as Json)) : []),
        ...((op.parameters ?? []) as Json[]).map((p) => [p.name, p.schema] as [string, Json]),
      ];
      for (const [name, s] of fields) {
        if (s.enum || s.format === 'binary') continue;
        expect(s.examples?.length, `${e.id} ${name}`).toBeGreaterThan(0);
        expect(s.example, `${e.id} ${name}`).toEqual(s.examples[0]);
      }
    }
  });

  it("has request examples that parse with their endpoint's zod schema (refinements included)", () => {
    expect(EXAMPLE_OPERATION_ID).toBe(operationIdFor('shop_a', 'order-1001'));
    const rows = [
      ...Object.values(endpoints).map((e) => [e.id, e] as const),
      ...Object.values(sandboxControls).map((c) => [c.id, c] as const),
    ] as unknown as (readonly [string, { body?: z.ZodType }])[];
    const withBody = rows.filter(([, r]) => r.body);
    expect(Object.keys(REQUEST_EXAMPLES).sort()).toEqual(
      withBody
        .map(([id]) => id)
        .filter((id) => id in REQUEST_EXAMPLES)
        .sort(),
    );
    for (const [id, row] of withBody) {
      const e = REQUEST_EXAMPLES[id];
      if (e === undefined) continue;
      const values = Array.isArray(e) ? (e as NamedExample[]).map((x) => x.value) : [e];
      for (const v of values) expect(row.body!.safeParse(v).error?.issues, id).toBeUndefined();
    }
    for (const e of (Object.values(endpoints) as { id: string; body?: z.ZodType }[]).filter((x) => x.body))
      expect(REQUEST_EXAMPLES, e.id).toHaveProperty(e.id);
  });

  it('answers each endpoint with its own schema: payment_url only on links, receipts only on state reads', () => {
    const success = (path: string, status = '200') =>
      deref(opOf(path, 'POST').responses[status].content['application/json'].schema);
    for (const path of ['/v1/payment', '/v1/payout', '/v1/confirm_payment']) {
      expect(Object.keys(success(path).properties), path).not.toContain('payment_url');
      expect(Object.keys(success(path).properties), path).not.toContain('receipts');
    }
    expect(success('/v1/payment/link').required).toContain('payment_url');
    expect(success('/v1/get_operation_state').required).toEqual(
      expect.arrayContaining(['receipts', 'receipt_evidence_status']),
    );
  });

  it('documents Cache-Control and Retry-After where the emulator sends them', () => {
    for (const path of ['/v1/payment/availability', '/v1/payment/recommendations']) {
      const op = doc.paths[path].get ?? doc.paths[path].post;
      expect(op.responses['200'].headers['Cache-Control'], path).toBeDefined();
      expect(op.responses['429'].headers['Retry-After'].required, path).toBe(true);
      expect(op.responses['503'].headers['Retry-After'], path).toBeDefined();
    }
    expect(opOf('/v1/get_operation_state', 'POST').responses['503'].headers['Retry-After']).toBeDefined();
    expect(opOf('/v1/payment', 'POST').responses['412'].headers['Cache-Control']).toBeDefined();
    expect(doc.components.headers.CacheControl.schema.enum).toEqual(['no-store']);
  });

  it('lists one webhook per event type, its body the contract schema with the type fixed', () => {
    expect(WebhookEventType.options).toEqual(OperationStatus.options.map((s) => `operation.${s}`));
    expect(Object.keys(doc.webhooks)).toEqual(WebhookEventType.options);
    for (const type of WebhookEventType.options) {
      const hook = doc.webhooks[type].post;
      expect(hook.requestBody.content['application/json'].schema.allOf).toEqual([
        { $ref: '#/components/schemas/WebhookEvent' },
        { type: 'object', properties: { type: { const: type } } },
      ]);
      expect(hook.parameters.map((p: Json) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
    expect(schemas.WebhookEvent!.properties.data.properties.operation).toEqual({
      $ref: '#/components/schemas/OperationState',
    });
    expectTypeOf<VerifiedEvent>().toEqualTypeOf<z.infer<typeof WebhookEvent>>();
  });
});
