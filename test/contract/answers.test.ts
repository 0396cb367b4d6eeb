// The document declares every status the server answers. A walker sends every route of both endpoint
// tables, over HTTP, the requests a client gets wrong — no credential, a wrong one, other methods on the path, bodies
// with another content type, unparsable, too large or empty, odd query values, unknown and malformed path ids — and
// fails on any answer whose status the document does not declare for that path and method (for a method the path
// does not take: on every operation of the path). 401 bodies are among the 401 examples; no status range anywhere;
// the statuses the fault injector can answer are declared too.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, fetch } from 'undici';
import { buildOpenApiDocument, endpoints, sandboxControls, type EndpointRow } from '../../src/contract/index.js';
import { faultStatuses } from '../../src/contract/faults.js';
import { openApiPath } from '../../src/contract/openapi/paths.js';
import { useSandbox } from '../helpers/sandbox.js';

vi.setConfig({ testTimeout: 120_000 });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADMIN = 'pg_admin_answers_walk_0123456789';
const sandbox = useSandbox({ per: 'file', transport: 'http', frozenClock: true, adminToken: ADMIN });
const doc = buildOpenApiDocument('0.0.0') as Json;
const ROWS: (EndpointRow & { multipart?: unknown; stream?: true })[] = [
  ...Object.values(endpoints),
  ...Object.values(sandboxControls),
];
const UUID = '00000000-0000-4000-8000-000000000000';
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

let dispatcher: Agent;
beforeAll(() => {
  dispatcher = new Agent();
});
afterAll(() => dispatcher.close());

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  what: string;
}

interface Answer {
  status: number;
  body: unknown;
}

async function send(p: Probe): Promise<Answer> {
  const res = await fetch(`${sandbox.baseUrl}${p.path}`, {
    method: p.method,
    headers: p.headers,
    redirect: 'manual',
    ...(p.body !== undefined ? { body: p.body } : {}),
    dispatcher,
  });
  // A stream of server-sent events never ends: its status is what counts.
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: undefined };
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

const credentialHeaders = (row: EndpointRow, which: 'none' | 'bad' | 'good'): Record<string, string> => {
  if (which === 'none' || row.auth === 'none') return {};
  const key = row.auth === 'key';
  if (which === 'bad')
    return key ? { 'x-api-key': 'pg_test_nobody_0000' } : { 'x-admin-token': 'pg_admin_wrong_0000000000000000' };
  return key ? { 'x-api-key': sandbox.keyOf('shop_a') } : { 'x-admin-token': ADMIN };
};

/** The path of `row` with each of its path parameters set to `id`. */
const withId = (row: EndpointRow, id: string) => row.path.replace(/:[a-z_]+/g, encodeURIComponent(id));

const queryOf = (op: Json, value: string): string => {
  const names = ((op.parameters ?? []) as Json[])
    .filter((p) => p.in === 'query')
    .map((p) => `${p.name}=${encodeURIComponent(value)}`);
  return names.length > 0 ? `?${names.join('&')}` : '';
};

const JSON_TYPE = { 'content-type': 'application/json' };
const BODIES: { what: string; headers: Record<string, string>; body: string | Uint8Array }[] = [
  { what: 'no content type', headers: {}, body: '{}' },
  { what: 'text/plain', headers: { 'content-type': 'text/plain' }, body: '{}' },
  { what: 'form-urlencoded', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' },
  { what: 'invalid JSON', headers: JSON_TYPE, body: '{"a":' },
  { what: 'a JSON array', headers: JSON_TYPE, body: '[]' },
  { what: 'an empty object', headers: JSON_TYPE, body: '{}' },
  { what: 'an empty body', headers: JSON_TYPE, body: '' },
  { what: 'an unknown operation_id', headers: JSON_TYPE, body: JSON.stringify({ operation_id: UUID }) },
  {
    what: 'an unknown merchant_operation_id',
    headers: JSON_TYPE,
    body: JSON.stringify({ merchant_operation_id: 'walk-unknown' }),
  },
  { what: 'merchant_id sent', headers: JSON_TYPE, body: JSON.stringify({ merchant_id: 'm', operation_id: UUID }) },
  { what: 'over 64 KiB', headers: JSON_TYPE, body: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }) },
  {
    what: 'a multipart form without fields',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    body: '--b--\r\n',
  },
  {
    what: 'a multipart form of an unknown operation',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    body: `--b\r\nContent-Disposition: form-data; name="operation_id"\r\n\r\n${UUID}\r\n--b\r\nContent-Disposition: form-data; name="confirmation_type"\r\n\r\nreceipt\r\n--b\r\nContent-Disposition: form-data; name="receipt"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--b--\r\n`,
  },
  {
    what: 'a broken multipart form',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    body: '--b\r\nno headers',
  },
  {
    what: 'an upload over 10 MiB',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    body: new Uint8Array(10 * 1024 * 1024 + 1024),
  },
];

/** Every request the walker sends to `row`'s path, with the row it is answered under (undefined: a wrong method). */
function probesOf(row: EndpointRow): Probe[] {
  const op = doc.paths[openApiPath(row.path)][row.method.toLowerCase()] as Json;
  const out: Probe[] = [];
  const ids = row.path.includes(':') ? [UUID, 'x', '-', '%20'] : [''];
  for (const id of ids) {
    const path = withId(row, id);
    for (const cred of ['none', 'bad', 'good'] as const) {
      const headers = credentialHeaders(row, cred);
      const what = `${cred} credential, id ${JSON.stringify(id)}`;
      if (row.method === 'GET' || row.method === 'DELETE') {
        out.push({ method: row.method, path, headers, what });
        if (cred !== 'good') continue;
        for (const v of ['x', '', '-1', '99999999999999999999', '1.5', 'true'])
          out.push({
            method: row.method,
            path: path + queryOf(op, v),
            headers,
            what: `${what}, query values ${JSON.stringify(v)}`,
          });
        out.push({
          method: row.method,
          path: `${path}?merchant_operation_id=walk-unknown`,
          headers,
          what: `${what}, an unknown merchant_operation_id`,
        });
      } else {
        out.push({ method: row.method, path, headers: { ...headers, ...JSON_TYPE }, body: '{}', what });
        if (cred !== 'good') continue;
        for (const b of BODIES)
          out.push({
            method: row.method,
            path,
            headers: { ...headers, ...b.headers },
            body: b.body,
            what: `${what}, ${b.what}`,
          });
        out.push({
          method: row.method,
          path: path + queryOf(op, 'x'),
          headers: { ...headers, ...JSON_TYPE },
          body: '{}',
          what: `${what}, query values "x"`,
        });
      }
    }
  }
  return out;
}

const matches = (template: string, path: string) =>
  new RegExp(`^${template.replace(/:[a-z_]+/g, '[^/]+')}$`).test(path);

/** Requests with the methods no row takes on `path` (with its ids filled in), with and without a credential. */
function wrongMethods(path: string, taken: readonly EndpointRow[]): Probe[] {
  const row = taken[0]!;
  const concrete = withId(row, UUID);
  const out: Probe[] = [];
  // `/sandbox/webhooks/deliveries` is also `/sandbox/webhooks/:id`: DELETE is a method of that path.
  for (const method of METHODS.filter((m) => !ROWS.some((r) => r.method === m && matches(r.path, concrete)))) {
    for (const cred of ['none', 'good'] as const) {
      const headers = { ...credentialHeaders(row, cred), ...JSON_TYPE };
      out.push({
        method,
        path: concrete,
        headers,
        ...(method === 'GET' ? {} : { body: '{}' }),
        what: `${method} on ${path}, ${cred} credential`,
      });
    }
  }
  return out;
}

/** Where the status or the 401 body of an answer is not what the document declares for the operations `ops`. */
function check(p: Probe, a: Answer, ops: Json[]): string[] {
  const bad: string[] = [];
  for (const op of ops) {
    const declared = op.responses[String(a.status)] as Json | undefined;
    if (!declared) {
      bad.push(
        `${op.operationId}: ${p.method} ${p.path} (${p.what}) answered ${a.status} ${JSON.stringify(a.body)}, declared ${Object.keys(op.responses).join(' ')}`,
      );
      continue;
    }
    if (a.status === 401) {
      const examples = Object.values((declared.content?.['application/json']?.examples ?? {}) as Json).map(
        (e) => e.value,
      );
      if (!examples.some((e) => JSON.stringify(e) === JSON.stringify(a.body)))
        bad.push(`${op.operationId}: 401 ${JSON.stringify(a.body)} is none of its examples`);
    }
  }
  return bad;
}

describe('the document declares every status the server answers', () => {
  it('has no status range (2XX, 4XX, 5XX) anywhere, webhooks included', () => {
    const ranges: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'responses') for (const s of Object.keys(v as Json)) if (/X/i.test(s)) ranges.push(`${at} ${s}`);
        visit(v, `${at}/${k}`);
      }
    };
    visit(doc, '#');
    expect(ranges).toEqual([]);
  });

  it("every /v1 operation's 401 carries the spec's two messages (§5, §7) verbatim as examples", () => {
    for (const e of Object.values(endpoints).filter((r) => r.auth !== 'none')) {
      const media = doc.paths[openApiPath(e.path)][e.method.toLowerCase()].responses['401'].content['application/json'];
      expect([e.id, Object.values(media.examples as Json).map((x) => x.value.message)]).toEqual([
        e.id,
        ['x-api-key header is required', 'invalid api key'],
      ]);
    }
  });

  it('the probes declare 204, 405 and 503, nothing else', () => {
    for (const probe of ['/livez', '/healthz', '/readyz'])
      expect(Object.keys(doc.paths[probe].get.responses)).toEqual(['204', '405', '503']);
  });

  it('declares every status the fault injector can answer, per gateway endpoint', () => {
    for (const [id, row] of Object.entries(endpoints)) {
      const op = doc.paths[openApiPath(row.path)][row.method.toLowerCase()] as Json;
      for (const s of faultStatuses(id as keyof typeof endpoints))
        expect(op.responses, `${id} ${s}`).toHaveProperty(String(s));
    }
  });

  it.each(ROWS.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, row) => {
    const op = doc.paths[openApiPath(row.path)][row.method.toLowerCase()] as Json;
    const bad: string[] = [];
    for (const p of probesOf(row)) bad.push(...check(p, await send(p), [op]));
    expect(bad).toEqual([]);
  });

  it('a method a path does not take is declared on every operation of the path', async () => {
    const byPath = new Map<string, EndpointRow[]>();
    for (const r of ROWS) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
    const bad: string[] = [];
    for (const [path, taken] of byPath) {
      const ops = taken.map((r) => doc.paths[openApiPath(r.path)][r.method.toLowerCase()] as Json);
      for (const p of wrongMethods(path, taken)) {
        const a = await send(p);
        bad.push(...check(p, a, ops));
        // With the credential: 405 and the path's methods in Allow (without one, a /v1 path is 401 first).
        if (p.what.endsWith('good credential') && a.status !== 405) bad.push(`${p.what}: ${a.status}, not 405`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('an empty path id is no id: every path id has minLength 1, and the server answers 404, not the list', async () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const op of Object.values(item as Json) as Json[]) {
        for (const p of (op.parameters ?? []) as Json[])
          if (p.in === 'path') expect(p.schema.minLength, `${path} ${p.name}`).toBeGreaterThanOrEqual(1);
      }
    }
    const admin = { 'x-admin-token': ADMIN };
    const key = { 'x-api-key': sandbox.keyOf('shop_a') };
    for (const [method, path, headers] of [
      ['GET', '/sandbox/operations/', admin],
      ['GET', '/sandbox/operations/', key],
      ['POST', '/sandbox/operations//pay', key],
      ['GET', '/sandbox/links/', admin],
      ['DELETE', '/sandbox/faults/', admin],
      ['GET', '/v1/balances/', key],
    ] as const) {
      const a = await send({
        method,
        path,
        headers: { ...headers, ...JSON_TYPE },
        ...(method === 'POST' ? { body: '{}' } : {}),
        what: 'empty id',
      });
      expect([method, path, a.status, (a.body as Json).code]).toEqual([method, path, 404, 'not_found']);
    }
    // Under /v1 the key is still checked first (spec §5 rule 3).
    const a = await send({ method: 'GET', path: '/v1/balances/', headers: {}, what: 'no key' });
    expect(a.status).toBe(401);
  });
});
