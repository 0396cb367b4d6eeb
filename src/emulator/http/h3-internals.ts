// The one module that reaches into h3's and Node's internals, for the hot path: the Node request and response
// behind an event (h3's `event.runtime.node`), the key under which h3 keeps an event's response settings (a private
// symbol, found by probing), h3's route list (`app['~routes']`), and the last JSON content type seen (a request
// sends the same one every time). Written against h3 H3_VERSION; test/emulator/h3-internals.test.ts pins it, so an
// upgrade that moves any of these fails there first, not in production.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { H3Event, type H3 } from 'h3';

/** The h3 version these internals were read from (test/emulator/h3-internals.test.ts checks the installed one). */
export const H3_VERSION = '2.0.8';

/** The one content type of every JSON answer (h3's own spelling, so an answer does not depend on who built it). */
export const JSON_TYPE = 'application/json;charset=UTF-8';

interface NodeRuntime {
  node?: { req?: IncomingMessage; res?: ServerResponse };
}

/** The Node request behind an event (undefined in process: sandbox.fetch). */
export function nodeRequest(event: H3Event): IncomingMessage | undefined {
  return (event.runtime as NodeRuntime | undefined)?.node?.req;
}

/** The Node request and response behind an event, when both are there. */
export function nodeExchange(event: H3Event): { req: IncomingMessage; res: ServerResponse } | undefined {
  const node = (event.runtime as NodeRuntime | undefined)?.node;
  return node?.req && node.res ? { req: node.req, res: node.res } : undefined;
}

/** The key under which h3 keeps an event's response settings (status, headers) once a route touched them; found by
 * probing h3 itself, once. null when it cannot be found: then every answer goes through h3 as before. */
let resKey: symbol | null | undefined;

function responseKey(): symbol | null {
  if (resKey === undefined) {
    try {
      const probe = new H3Event({ url: 'http://localhost/' } as unknown as Request);
      const res = probe.res;
      resKey =
        Object.getOwnPropertySymbols(probe).find((k) => (probe as unknown as Record<symbol, unknown>)[k] === res) ??
        null;
    } catch {
      resKey = null;
    }
  }
  return resKey;
}

/** Whether the route set nothing on `event.res` (no status, no header): then its answer may be built directly. */
export function resUntouched(event: H3Event): boolean {
  const key = responseKey();
  return key !== null && (event as unknown as Record<symbol, unknown>)[key] === undefined;
}

/** One route as h3 holds it. */
export interface H3RouteRow {
  method: string;
  route: string;
  meta: Record<string, unknown> | undefined;
}

/** Every route the app holds, in the order mounted (h3's route list). */
export function h3Routes(app: H3): H3RouteRow[] {
  return app['~routes'].map((r) => ({
    method: r.method ?? '',
    route: r.route ?? '',
    meta: r.meta as Record<string, unknown> | undefined,
  }));
}

/** The last Content-Type accepted for a JSON body: a client sends the same one on every request, checked once. */
let lastJsonType: string | undefined;

/** Why `type` is refused for a JSON body, from `check` (undefined: accepted); the last accepted type is remembered. */
export function jsonTypeProblem(type: string, check: (type: string) => string | undefined): string | undefined {
  if (type === lastJsonType) return undefined;
  const problem = check(type);
  if (problem === undefined) lastJsonType = type;
  return problem;
}
