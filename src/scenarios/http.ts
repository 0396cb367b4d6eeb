// Turning a step's endpoint id and `with:` fields into a WHATWG Request (path, query, JSON or multipart body and
// the credential its table row names), and a Response into what expectations read.
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { callableOf, type Callable } from './vocabulary.js';
import type { Target } from './target.js';

/** The request as reports show it. */
export interface SentRequest {
  method: string;
  path: string;
  body?: unknown;
}

export interface Answer {
  status: number;
  /** Parsed JSON, the text when it is not JSON, undefined when empty. */
  body: unknown;
  headers: Record<string, string>;
}

export interface CallInput {
  /** The dotted endpoint id. */
  call: string;
  with: Record<string, unknown>;
  /** The shop whose key to send. */
  shop: string;
  /** An explicit key (overrides the shop's); null or '' sends none. */
  key?: string | null | undefined;
  headers?: Record<string, string> | undefined;
  /** Directory that relative file paths (receipts) are read from. */
  baseDir: string;
}

export class StepInputError extends Error {
  override readonly name = 'StepInputError';
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

async function filePart(value: unknown, baseDir: string): Promise<{ blob: Blob; filename: string }> {
  const spec =
    typeof value === 'string'
      ? { file: value }
      : (value as { file?: unknown; content_type?: unknown; filename?: unknown });
  if (!spec || typeof spec.file !== 'string')
    throw new StepInputError('a file field is a path, or {file, content_type?, filename?}');
  const path = isAbsolute(spec.file) ? spec.file : resolve(baseDir, spec.file);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new StepInputError(`cannot read ${spec.file}: ${(e as Error).message}`);
  }
  const type =
    typeof spec.content_type === 'string'
      ? spec.content_type
      : path.endsWith('.pdf')
        ? 'application/pdf'
        : 'application/octet-stream';
  return {
    blob: new Blob([new Uint8Array(bytes)], { type }),
    filename: typeof spec.filename === 'string' ? spec.filename : basename(path),
  };
}

function fillPath(c: Callable, fields: Record<string, unknown>): string {
  return c.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = fields[name];
    if (v === undefined && name === 'id' && fields.merchant_operation_id !== undefined) return '-';
    if (v === undefined || v === '') throw new StepInputError(`${c.id} needs "${name}" (a path parameter) in with:`);
    return encodeURIComponent(text(v));
  });
}

async function encodeBody(
  c: Callable,
  fields: Record<string, unknown>,
  baseDir: string,
): Promise<{ body?: string | FormData; shown?: unknown; type?: string }> {
  if (c.multipart) {
    const form = new FormData();
    const shown: Record<string, unknown> = {};
    const withDefaults = { confirmation_type: 'receipt', ...fields };
    for (const [name, v] of Object.entries(withDefaults)) {
      if (c.fields[name]?.place === 'file') {
        const { blob, filename } = await filePart(v, baseDir);
        form.set(name, blob, filename);
        shown[name] = `<file ${filename}, ${blob.size} bytes, ${blob.type}>`;
      } else {
        form.set(name, text(v));
        shown[name] = v;
      }
    }
    return { body: form, shown };
  }
  const json: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(fields)) {
    const place = c.fields[name]?.place;
    if (place === 'path' || place === 'query') continue;
    if (c.method === 'GET') continue;
    json[name] = v;
  }
  const hasBody = Object.keys(c.fields).some((n) => c.fields[n]!.place === 'body');
  if (!hasBody && Object.keys(json).length === 0) return {};
  return { body: JSON.stringify(json), shown: json, type: 'application/json' };
}

/** Build the request of a call step. */
export async function buildRequest(target: Target, input: CallInput): Promise<{ request: Request; sent: SentRequest }> {
  const c = callableOf(input.call);
  if (!c) throw new StepInputError(`unknown endpoint id ${input.call}`);
  const fields = input.with;
  const url = new URL(target.baseUrl + fillPath(c, fields));
  for (const [name, v] of Object.entries(fields)) {
    const place = c.fields[name]?.place ?? (c.method === 'GET' ? 'query' : undefined);
    if (place === 'query' && v !== undefined && v !== null) url.searchParams.set(name, text(v));
  }
  const headers = new Headers({ accept: 'application/json' });
  // A support read (either credential) acts as the step's shop, like a shop control; the admin token only without a key.
  const key =
    c.auth === 'key' || c.auth === 'support'
      ? input.key !== undefined
        ? input.key
        : target.keyOf(input.shop)
      : undefined;
  if (key) headers.set('x-api-key', key);
  else if ((c.auth === 'admin' || c.auth === 'support') && target.adminToken)
    headers.set('x-admin-token', target.adminToken);
  const { body, shown, type } = await encodeBody(c, fields, input.baseDir);
  if (type) headers.set('content-type', type);
  for (const [k, v] of Object.entries(input.headers ?? {})) headers.set(k, v);
  const request = new Request(url, { method: c.method, headers, ...(body !== undefined ? { body } : {}) });
  const sent: SentRequest = {
    method: c.method,
    path: url.pathname + url.search,
    ...(shown !== undefined ? { body: shown } : {}),
  };
  return { request, sent };
}

/** Send and read the whole answer. */
export async function exchange(target: Target, request: Request): Promise<Answer> {
  const res = await target.send(request);
  const raw = await res.text();
  let body: unknown = undefined;
  if (raw !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return { status: res.status, body, headers };
}

/** Call an endpoint by id outside any step (reads the runner makes for expectations and wait_for). */
export async function callById(
  target: Target,
  call: string,
  fields: Record<string, unknown>,
  shop: string,
): Promise<Answer> {
  const { request } = await buildRequest(target, { call, with: fields, shop, baseDir: dirname('.') });
  return exchange(target, request);
}
