// Reading request bodies safely: content type, a size limit, JSON syntax; every failure is a clear 4xx.
import type { IncomingMessage } from 'node:http';
import type { H3Event } from 'h3';
import { header } from './headers.js';
import { jsonTypeProblem, nodeRequest } from './h3-internals.js';
import type { z } from 'zod';
import { echo } from '../../contract/echo.js';
import { ApiError, validationError } from './errors.js';
import { mayRepeatKeys, repeatedKeyAt } from './json-keys.js';

/** Largest JSON body accepted (bytes). */
export const JSON_BODY_LIMIT = 64 * 1024;

export function readLimited(event: H3Event, limit: number): Promise<Uint8Array> {
  const declared = header(event, 'content-length');
  if (declared !== null && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  // On Node, read the IncomingMessage directly: much cheaper than a web ReadableStream per request. Its promise is
  // returned as is (not from an async function, which would add a promise and its ticks on every request).
  const nodeReq = nodeRequest(event);
  if (nodeReq && !nodeReq.readableDidRead && !nodeReq.readableEnded) return readNode(nodeReq, limit);
  return readWeb(event, limit);
}

async function readWeb(event: H3Event, limit: number): Promise<Uint8Array> {
  const body = event.req.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function readNode(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        // Stop collecting but keep draining, so the connection survives to carry the 413.
        req.off('data', onData).off('end', onEnd).off('error', onError);
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = (e: Error) =>
      reject(new ApiError('body_unreadable', `the request body could not be read: ${e.message}`));
    req.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

function tooLarge(limit: number): ApiError {
  return new ApiError('body_too_large', `request body is larger than ${limit} bytes`);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Why a Content-Type is refused for a JSON body (415), or undefined: JSON, and UTF-8 if it names a charset. */
function jsonTypeRefusal(type: string): string | undefined {
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(type.trim())) {
    return `send the body as JSON with Content-Type: application/json${type ? ` (got ${echo(type)})` : ''}`;
  }
  const params = type.split(';');
  for (let i = 1; i < params.length; i++) {
    const p = params[i]!;
    const eq = p.indexOf('=');
    if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!/^utf-?8$/i.test(charset)) {
      return `send the body in UTF-8, as Content-Type: application/json; charset=utf-8 (or no charset): charset ${charset ? echo(charset) : '(empty)'} is not read`;
    }
  }
  return undefined;
}

/** Parse a JSON body and validate it with a contract schema. */
export async function readJson<S extends z.ZodType>(event: H3Event, schema: S): Promise<z.output<S>> {
  const type = header(event, 'content-type') ?? '';
  const problem = jsonTypeProblem(type, jsonTypeRefusal);
  if (problem !== undefined) {
    throw new ApiError('unsupported_media_type', problem);
  }
  const bytes = await readLimited(event, JSON_BODY_LIMIT);
  let text: string;
  let data: unknown;
  try {
    text = decoder.decode(bytes);
    data = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    throw new ApiError('invalid_json', `request body is not valid JSON: ${detail}`);
  }
  // JSON.parse keeps the last of two equal keys; a proxy reading the first would see another request.
  if (mayRepeatKeys(text, data)) {
    const at = repeatedKeyAt(text);
    if (at)
      throw new ApiError('validation_error', `${echo(at)}: is sent more than once in one object; send each field once`);
  }
  return parseWith(schema, data, 'body');
}

/**
 * The path of the first string (value or key) in `data` that is not well-formed Unicode — a lone surrogate such as
 * `\ud800`, which JSON can spell but UTF-8 cannot carry — or undefined. Two such ids would otherwise name one
 * operation (both become U+FFFD when hashed).
 */
export function illFormedAt(data: unknown, path = '', depth = 0): string | undefined {
  if (typeof data === 'string') return data.isWellFormed() ? undefined : path || 'value';
  if (typeof data !== 'object' || data === null || depth > 64) return undefined;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const at = illFormedAt(data[i], `${path}[${i}]`, depth + 1);
      if (at) return at;
    }
    return undefined;
  }
  // Object.keys, not entries: one array per object instead of one per key (this runs on every request body).
  for (const k of Object.keys(data)) {
    if (!k.isWellFormed()) return path ? `${path}.${k}` : k;
    const v = (data as Record<string, unknown>)[k];
    // A string value is checked here: no path is built for it unless it is the one that is not well-formed.
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return (path ? `${path}.${k}` : k) || 'value';
      continue;
    }
    const at = illFormedAt(v, path ? `${path}.${k}` : k, depth + 1);
    if (at) return at;
  }
  return undefined;
}

export function parseWith<S extends z.ZodType>(schema: S, data: unknown, where: string): z.output<S> {
  const bad = illFormedAt(data);
  if (bad)
    throw new ApiError(
      'validation_error',
      `${echo(bad)}: must be well-formed Unicode text (it holds a lone surrogate such as \ud800)`,
    );
  let r: ReturnType<S['safeParse']>;
  try {
    r = schema.safeParse(data) as ReturnType<S['safeParse']>;
  } catch (e) {
    if (e instanceof RangeError) throw new ApiError('validation_error', `request ${where} is nested too deeply`);
    throw e;
  }
  if (!r.success) throw validationError(r.error, where);
  return r.data as z.output<S>;
}
