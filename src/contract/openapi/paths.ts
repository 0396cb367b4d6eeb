// One operation of the document from one row of an endpoint table: parameters, request body with its examples,
// per-endpoint responses with the headers the emulator sends (Cache-Control, Retry-After).
import type { z } from 'zod';
import { operationIdOf, successStatus, type EndpointRow } from '../endpoint-row.js';
import { ADMIN_TOKEN_401, answeredErrors, API_KEY_401 } from '../statuses.js';
import { mediaExamples } from './examples.js';
import { parametersOf, ref, schemaOf, type Json } from './json-schema.js';

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'Healthy' };

const SECURITY = {
  none: [],
  key: [{ ApiKey: [] }],
  admin: [{ AdminToken: [] }],
  support: [{ AdminToken: [] }, { ApiKey: [] }],
} as const;

/** The response headers, under components.headers. */
export const HEADERS = {
  CacheControl: {
    description: '`no-store`: on every error answer, and on every answer of the amount reads (spec §4.9).',
    schema: { type: 'string', enum: ['no-store'] },
  },
} as const;

const cacheControl = { 'Cache-Control': { $ref: '#/components/headers/CacheControl' } };
const retryAfter = (always: boolean) => ({
  'Retry-After': {
    description: always
      ? 'Seconds to wait before retrying.'
      : 'Seconds to wait before retrying; sent when the cause is temporary (reads busy, read budget exceeded, receipt evidence unavailable).',
    required: always,
    schema: { type: 'integer', minimum: 1, examples: [1] },
  },
});

/** Which answers carry Retry-After, by endpoint id and status: always the amount reads' 429; a 503 when temporary. */
const RETRY_AFTER: Record<string, readonly number[]> = {
  'payment.availability': [429, 503],
  'payment.recommendations': [429, 503],
  'operation.state': [503],
};

/** Operations whose successful answer carries Cache-Control: no-store. */
const NO_STORE_SUCCESS = new Set(['payment.availability', 'payment.recommendations']);

export interface OperationInput {
  row: EndpointRow & { multipart?: z.ZodType };
  tag: string;
  description: string;
  errorText: Record<number, string>;
}

function requestBodyOf(row: OperationInput['row']): Json | undefined {
  if (row.multipart) {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: schemaOf(row.multipart, 'input'),
          encoding: { receipt: { contentType: 'application/pdf' } },
        },
      },
    };
  }
  if (!row.body) return undefined;
  return {
    required: true,
    content: { 'application/json': { schema: schemaOf(row.body, 'input'), ...mediaExamples(row.id) } },
  };
}

function successOf(row: EndpointRow): Json {
  const status = successStatus(row);
  const out: Json = { description: SUCCESS_TEXT[status] };
  if (NO_STORE_SUCCESS.has(row.id)) out.headers = cacheControl;
  if ((row as { stream?: true }).stream && row.response) {
    // Server-sent events: each event's `data:` line is one JSON value of the response schema.
    out.content = {
      'text/event-stream': {
        schema: {
          type: 'string',
          description: 'Server-sent events; the data of each event is JSON of the schema in x-paygate-event-data.',
        },
        'x-paygate-event-data': schemaOf(row.response, 'output'),
      },
    };
  } else if (row.response) out.content = { 'application/json': { schema: schemaOf(row.response, 'output') } };
  return out;
}

/** The bodies of the 401s `row` answers, as named examples: the spec's two messages for a key (§5). */
function unauthorizedExamples(row: EndpointRow): Json {
  const credential = row.auth;
  const example = (summary: string, value: { code: string; message: string }) => ({ summary, value });
  const out: Json = {};
  if (credential === 'admin' || credential === 'support') {
    out.missing_admin_token = example('X-Admin-Token missing', ADMIN_TOKEN_401.missing);
    out.invalid_admin_token = example('X-Admin-Token wrong', ADMIN_TOKEN_401.invalid);
  }
  if (credential === 'key' || credential === 'support') {
    out.missing_api_key = example("X-API-Key missing (the spec's message, §5)", API_KEY_401.missing);
    out.invalid_api_key = example("X-API-Key unknown or revoked (the spec's message, §5)", API_KEY_401.invalid);
  }
  return out;
}

function responsesOf(input: OperationInput): Json {
  const { row, errorText } = input;
  const responses: Json = { [String(successStatus(row))]: successOf(row) };
  const unauthorized = UNAUTHORIZED_TEXT[row.auth];
  for (const s of answeredErrors(row)) {
    const text = s === 401 && unauthorized ? unauthorized : (errorText[s] ?? 'Error');
    const headers = RETRY_AFTER[row.id]?.includes(s) ? { ...cacheControl, ...retryAfter(s === 429) } : cacheControl;
    const media: Json = { schema: ref('Error') };
    if (s === 401) media.examples = unauthorizedExamples(row);
    const out: Json = {
      description: text,
      headers: s === 405 ? { ...headers, ...ALLOW } : headers,
      content: { 'application/json': media },
    };
    responses[String(s)] = out;
  }
  return responses;
}

/** The 401 text where the credential is not (only) the shop's key. */
const UNAUTHORIZED_TEXT: Partial<Record<string, string>> = {
  admin: 'X-Admin-Token missing or invalid.',
  support: 'Neither a valid X-Admin-Token nor a valid X-API-Key (the admin token is checked when sent).',
};

const ALLOW = {
  Allow: { description: 'The methods of this path.', required: true, schema: { type: 'string', examples: ['POST'] } },
};

/** The OpenAPI operation of one row. */
export function operationOf(input: OperationInput): Json {
  const { row, tag } = input;
  const op: Json = {
    operationId: operationIdOf(row),
    'x-paygate-id': row.id,
    tags: [tag],
    summary: row.summary,
    description: input.description,
  };
  op.security = SECURITY[row.auth];
  const parameters = [
    ...(row.params ? parametersOf(row.params, 'path') : []),
    ...(row.query ? parametersOf(row.query, 'query') : []),
  ];
  if (parameters.length > 0) op.parameters = parameters;
  const body = requestBodyOf(row);
  if (body) op.requestBody = body;
  op.responses = responsesOf(input);
  return op;
}

/** `/sandbox/operations/:id` → `/sandbox/operations/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}
