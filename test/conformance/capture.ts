// Real exchanges for the checker: a Request and its Response (both read from clones, so the caller still reads
// them) made into an Exchange with the secrets removed — the key kept only as a fingerprint — as the proxy does.
import { createHash } from 'node:crypto';
import { vi } from 'vitest';
import type { ConformanceChecker, Exchange } from '../../src/conformance/index.js';

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie']);

function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (!SECRET_HEADERS.has(k.toLowerCase())) out[k.toLowerCase()] = v;
  });
  return out;
}

function bodyOf(text: string, contentType: string | undefined): { body?: unknown; bodyText?: string } {
  if (text === '' || /multipart\//i.test(contentType ?? '')) return {};
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { bodyText: text.slice(0, 4096) };
  }
}

export const fingerprintOfKey = (key: string) => `key_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

export function exchangeOf(
  seq: number,
  req: { method: string; url: string; headers: Headers; text: string },
  res: { status: number; headers: Headers; text: string },
  startedAt: number,
  durationMs: number,
): Exchange {
  const url = new URL(req.url);
  const key = req.headers.get('x-api-key');
  const reqType = req.headers.get('content-type') ?? undefined;
  return {
    seq,
    startedAt: new Date(startedAt).toISOString(),
    durationMs,
    ...(key !== null ? { credential: fingerprintOfKey(key) } : {}),
    request: {
      method: req.method.toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: headersOf(req.headers),
      ...(reqType !== undefined ? { contentType: reqType } : {}),
      ...bodyOf(req.text, reqType),
    },
    response: {
      status: res.status,
      headers: headersOf(res.headers),
      ...bodyOf(res.text, res.headers.get('content-type') ?? undefined),
    },
  };
}

/** A fetch-like function that passes each exchange through `checker` on its way. */
export function checkedFetch(
  checker: ConformanceChecker,
  send: (request: Request) => Promise<Response>,
  seen: Exchange[] = [],
): (request: Request) => Promise<Response> {
  let seq = 0;
  return async (request) => {
    const started = Date.now();
    const t0 = performance.now();
    const text = await request.clone().text();
    const response = await send(request);
    const resText = await response.clone().text();
    const x = exchangeOf(
      ++seq,
      { method: request.method, url: request.url, headers: request.headers, text },
      { status: response.status, headers: response.headers, text: resText },
      started,
      performance.now() - t0,
    );
    seen.push(x);
    checker.check(x);
    return response;
  };
}

/** Every global fetch of this process through the checker (the scenario runner's remote target uses it); restore after. */
export function checkGlobalFetch(checker: ConformanceChecker, seen: Exchange[] = []): { restore(): void } {
  const original = globalThis.fetch;
  const checked = checkedFetch(checker, (r) => original(r), seen);
  const spy = vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation((input: Parameters<typeof fetch>[0], init?: RequestInit) => checked(new Request(input, init)));
  return { restore: () => spy.mockRestore() };
}
