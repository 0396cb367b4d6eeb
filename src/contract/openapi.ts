// Generates the OpenAPI 3.1 document from both endpoint tables and their zod schemas: the gateway's endpoints under
// the `gateway` tag, the sandbox's controls under the `sandbox` tag.
import { z } from 'zod';
import { ErrorBody } from './common.js';
import { sandboxControls, type SandboxControlDef } from './controls.js';
import { endpoints, type EndpointDef } from './endpoints.js';
import { credentialOf, successStatus, type RouteDef } from './route.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid JSON, or a field missing or malformed.',
  401: 'X-API-Key missing, invalid or revoked.',
  403: 'Key not authorized for this endpoint.',
  404: 'Operation not in this shop\'s scope or not existing.',
  409: 'The operation is not in a state that accepts this request.',
  412: 'Precondition failed (idempotency key reused with another body, state or routing precondition).',
  413: 'Body too large.',
  415: 'Unsupported content type.',
  429: 'Rate limited; see Retry-After.',
  500: 'Internal inconsistency.',
  503: 'Temporarily unavailable; retry with backoff.',
};

/** Where the sandbox's controls differ from the gateway's wording. */
const CONTROL_ERROR_TEXT: Record<number, string> = {
  404: 'No such operation, link, key, shop, webhook endpoint or delivery (in this shop\'s scope).',
  412: 'Precondition failed (the shop has no route through a self-matching pool).',
};

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'Healthy' };

const SECURITY = { none: [], key: [{ ApiKey: [] }], admin: [{ AdminToken: [] }], support: [{ AdminToken: [] }, { ApiKey: [] }] } as const;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
}

function parametersOf(schema: z.ZodType, where: 'query' | 'path'): Record<string, unknown>[] {
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !field.safeParse(undefined).success,
    schema: z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }),
  }));
}

function requestBodyOf(e: RouteDef & { multipart?: z.ZodType }): Record<string, unknown> | undefined {
  if (e.multipart) {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: schemaOf(e.multipart, 'input'),
          encoding: { receipt: { contentType: 'application/pdf' } },
        },
      },
    };
  }
  if (e.body) return { required: true, content: { 'application/json': { schema: schemaOf(e.body, 'input') } } };
  return undefined;
}

function responsesOf(e: RouteDef, errorText: Record<number, string>): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const status = successStatus(e);
  responses[String(status)] = e.response
    ? { description: SUCCESS_TEXT[status], content: { 'application/json': { schema: schemaOf(e.response, 'output') } } }
    : { description: SUCCESS_TEXT[status] };
  const credential = credentialOf(e);
  for (const s of e.errors) {
    const text = s === 401 && credential === 'admin' ? 'X-Admin-Token missing or invalid.' : errorText[s] ?? ERROR_TEXT[s];
    responses[String(s)] = {
      description: text ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return responses;
}

function operationOf(e: RouteDef & { multipart?: z.ZodType }, operationId: string, tag: string, errorText: Record<number, string>): Record<string, unknown> {
  const op: Record<string, unknown> = { operationId, 'x-paygate-id': e.name, tags: [tag], summary: e.summary };
  op.security = SECURITY[credentialOf(e)];
  const parameters = [...(e.params ? parametersOf(e.params, 'path') : []), ...(e.query ? parametersOf(e.query, 'query') : [])];
  if (parameters.length > 0) op.parameters = parameters;
  const body = requestBodyOf(e);
  if (body) op.requestBody = body;
  op.responses = responsesOf(e, errorText);
  return op;
}

/** `/sandbox/operations/:id` → `/sandbox/operations/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The OpenAPI 3.1 document of the gateway interface and the sandbox's controls, generated from the contract. */
export function buildOpenApiDocument(version = '0.0.0'): Record<string, unknown> {
  const registered = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    io: 'input',
  }) as { schemas: Record<string, Record<string, unknown>> };
  const schemas: Record<string, unknown> = {};
  for (const [id, s] of Object.entries(registered.schemas)) {
    const { $id: _ignored, $schema: _s, ...rest } = s;
    schemas[id] = rest;
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of Object.values(endpoints) as EndpointDef[]) {
    (paths[openApiPath(e.path)] ??= {})[e.method.toLowerCase()] = operationOf(e, e.id, 'gateway', ERROR_TEXT);
  }
  for (const c of Object.values(sandboxControls) as SandboxControlDef[]) {
    (paths[openApiPath(c.path)] ??= {})[c.method.toLowerCase()] = operationOf(c, c.operationId, 'sandbox', CONTROL_ERROR_TEXT);
  }
  void ErrorBody;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment Gateway API (paygate sandbox)',
      version,
      description: 'Generated by paygate from its zod contract. Amounts are decimal strings.',
    },
    servers: [{ url: 'http://127.0.0.1:4080' }],
    tags: [
      { name: 'gateway', description: 'The payment gateway interface.' },
      { name: 'sandbox', description: "The paygate sandbox's own controls under /sandbox (not part of the gateway)." },
    ],
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        AdminToken: { type: 'apiKey', in: 'header', name: 'X-Admin-Token', description: 'Printed by `paygate sandbox start`.' },
      },
      schemas,
    },
    paths,
  };
}
