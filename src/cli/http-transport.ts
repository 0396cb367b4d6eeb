// The CLI's transport (src/client/wire.ts): one request over node:http or node:https. A command makes one or a few
// requests and exits, so it needs none of undici's pooling, and node:http is already in Node's start-up snapshot
// while undici costs a third of a second to import. The client's retries, timeouts and error mapping stay in the
// core; this only carries one exchange, and fails the way undici does (the socket's error, with its code).
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Readable } from 'node:stream';
import type { Transport } from '../client/wire.js';

/** Lower-cased names; repeated headers joined with ", " (Set-Cookie included), as the default transport gives them. */
function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

type Send = (
  url: URL,
  options: RequestOptions,
  onResponse: (res: IncomingMessage) => void,
) => ReturnType<typeof httpRequest>;

/** node:https and node:tls load only for an https URL (a third of the start-up of a plain http command otherwise). */
async function httpsSender(ca: string | undefined): Promise<Send> {
  const [{ request }, { rootCertificates }] = await Promise.all([import('node:https'), import('node:tls')]);
  const trust = ca === undefined ? {} : { ca: [...rootCertificates, ca] };
  return (url, options, onResponse) => request(url, { ...options, ...trust }, onResponse);
}

/** A transport that trusts `ca` (PEM) besides Node's bundled roots on https. */
export function nodeTransport(ca?: string): Transport {
  let https: Promise<Send> | undefined;
  return async ({ url, method, headers, body, signal }) => {
    const target = new URL(url);
    const send: Send = target.protocol === 'https:' ? await (https ??= httpsSender(ca)) : httpRequest;
    if (typeof body === 'string' || Buffer.isBuffer(body))
      headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    return new Promise((resolve, reject) => {
      const req = send(target, { method, headers, signal }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: headersOf(res),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', reject);
      if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
      else (body as Readable).on('error', (e) => req.destroy(e)).pipe(req);
    });
  };
}
