// `forwardWebhooksTo` of startSandbox: the app's receiver as a URL (each delivery POSTed on to it, body and
// webhook-* headers unchanged, its status the sandbox's answer) or a fetch handler; anything else is refused.
import type { FetchHandler } from '../client/in-process.js';

/** The headers a forwarded delivery keeps: what a Standard Webhooks receiver reads. */
const FORWARDED_HEADERS = [
  'content-type',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
] as const;

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  return typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;
}

/** An http(s) URL, or a TypeError saying what was given instead. */
function checkedUrl(v: string | URL): URL {
  let u: URL;
  try {
    u = new URL(String(v));
  } catch {
    throw new TypeError(
      `startSandbox: forwardWebhooksTo is not a URL: ${describe(v)} (give an absolute http(s) URL, e.g. http://127.0.0.1:3000/webhooks, or a fetch handler)`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new TypeError(`startSandbox: forwardWebhooksTo must be an http(s) URL, not ${u.protocol} (${u.href})`);
  }
  return u;
}

/** POST each delivery on to `url`; the receiver's status is the answer (a network error fails the attempt). */
function toUrl(url: URL): FetchHandler['fetch'] {
  return async (request) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const v = request.headers.get(name);
      if (v !== null) headers[name] = v;
    }
    const res = await fetch(url, { method: 'POST', headers, body: await request.arrayBuffer() });
    await res.arrayBuffer().catch(() => undefined);
    return new Response(null, { status: res.status });
  };
}

/** The handler behind `forwardWebhooksTo` (undefined when not given); throws a TypeError for anything unusable. */
export function forwarder(target: unknown): FetchHandler['fetch'] | undefined {
  if (target === undefined) return undefined;
  if (typeof target === 'function') return target as FetchHandler['fetch'];
  if (typeof target === 'string' || target instanceof URL) return toUrl(checkedUrl(target));
  throw new TypeError(
    `startSandbox: forwardWebhooksTo must be an http(s) URL (string or URL) or a fetch handler (request) => Response, not ${describe(target)}`,
  );
}
