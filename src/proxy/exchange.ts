// What the proxy saw of one request and its answer, as the conformance checker's Exchange (src/conformance/types.ts):
// header names in lower case, the credentials removed (the API key is kept only as a fingerprint), JSON bodies
// parsed, other text kept up to 4 KB, multipart bodies left out.
import { createHash } from 'node:crypto';
import type { Exchange } from '../conformance/types.js';

/** Request headers that carry a secret: never in an Exchange, a report or a recording. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-admin-token',
]);
/** Response headers that carry a secret. */
const SECRET_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['set-cookie']);

const TEXT_LIMIT = 4096;

/** A key as it may be shown: its last 4 characters (`****Nc8V`), all masked under 12 (as src/cli/mask.ts does). */
export function maskKey(key: string): string {
  return key.length >= 12 ? `****${key.slice(-4)}` : '****';
}

/** The Exchange with every occurrence of `key` (an answer echoing it, a body carrying it) masked. */
function withoutKey(x: Exchange, key: string | undefined): Exchange {
  if (!key || key.length < 4) return x;
  const text = JSON.stringify(x);
  return text.includes(key) ? (JSON.parse(text.split(key).join(maskKey(key))) as Exchange) : x;
}

/** A stable, non-secret name for an API key: `key_` and 12 hex digits of its SHA-256. */
export function credentialOf(key: string): string {
  return `key_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

export type RawHeaders = Record<string, string | string[] | undefined>;

/** Lower-case names, one string per header (repeated values joined by ", "), the secret ones left out. */
export function cleanHeaders(headers: RawHeaders, secret: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const n = name.toLowerCase();
    if (value === undefined || secret.has(n)) continue;
    out[n] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A body as the Exchange keeps it: parsed JSON, or its text (4 KB at most), or nothing (multipart, empty). */
export function bodyOf(
  bytes: Buffer | undefined,
  contentType: string | undefined,
  complete: boolean,
): { body?: unknown; bodyText?: string } {
  if (!bytes || bytes.length === 0) return {};
  if (contentType?.toLowerCase().startsWith('multipart/')) return {};
  const text = bytes.toString('utf8');
  if (complete) {
    try {
      return { body: JSON.parse(text) as unknown };
    } catch {
      // not JSON: kept as text below
    }
  }
  return { bodyText: text.length > TEXT_LIMIT ? text.slice(0, TEXT_LIMIT) : text };
}

/** The query string of a request target as a record (the last value of a repeated name wins). */
export function queryOf(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) out[k] = v;
  return out;
}

export interface SeenRequest {
  method: string;
  /** The request target as the caller sent it: path and query. */
  target: string;
  headers: RawHeaders;
  body: Buffer | undefined;
  /** False when the body was longer than what was kept. */
  complete: boolean;
}

export interface SeenResponse {
  status: number;
  headers: RawHeaders;
  body: Buffer | undefined;
  complete: boolean;
}

/** The Exchange of one forwarded request: nothing secret in it. */
export function buildExchange(
  seq: number,
  startedAt: Date,
  durationMs: number,
  req: SeenRequest,
  res: SeenResponse,
): Exchange {
  const q = req.target.indexOf('?');
  const path = q < 0 ? req.target : req.target.slice(0, q);
  const key = req.headers['x-api-key'];
  const keyText = Array.isArray(key) ? key[0] : key;
  const contentType = header(req.headers, 'content-type');
  return withoutKey(
    {
      seq,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(durationMs * 1000) / 1000,
      ...(keyText ? { credential: credentialOf(keyText) } : {}),
      request: {
        method: req.method.toUpperCase(),
        path,
        query: q < 0 ? {} : queryOf(req.target.slice(q + 1)),
        headers: cleanHeaders(req.headers, SECRET_HEADERS),
        ...(contentType ? { contentType } : {}),
        ...bodyOf(req.body, contentType, req.complete),
      },
      response: {
        status: res.status,
        headers: cleanHeaders(res.headers, SECRET_RESPONSE_HEADERS),
        ...bodyOf(res.body, header(res.headers, 'content-type'), res.complete),
      },
    },
    keyText,
  );
}

function header(headers: RawHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
