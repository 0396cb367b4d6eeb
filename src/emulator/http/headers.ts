// Reading a request header cheaply: on Node, straight from the IncomingMessage (already parsed, lower-cased
// keys) instead of materialising a WHATWG Headers object per request; elsewhere (in-process fetch), from Headers.
import type { H3Event } from 'h3';
import { nodeRequest } from './h3-internals.js';

export function header(event: H3Event, name: string): string | null {
  const node = nodeRequest(event);
  if (node) {
    const v = node.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  return event.req.headers.get(name);
}
