// The client's default transport: undici's `request` through the given Dispatcher (the `dispatcher` option, the
// `ca` option's Agent, or undici's global one). Imported on the first request, so importing the client costs no undici.
import { request, type Dispatcher } from 'undici';
import { flattenHeaders } from './core-helpers.js';
import type { Transport } from './wire.js';

export function undiciTransport(dispatcher: Dispatcher | undefined): Transport {
  return async ({ url, method, headers, body, signal }) => {
    const res = await request(url, {
      method,
      headers,
      body: body ?? null,
      signal,
      ...(dispatcher ? { dispatcher } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: flattenHeaders(res.headers), text };
  };
}
