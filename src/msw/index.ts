// Package entry `paygate/msw`: msw 2 request handlers that answer every request to the gateway's base URL from an
// in-process sandbox, so an app that calls the gateway with `fetch` is tested with no port and no network.
// (paygate/client goes through undici, which msw does not intercept: give it createInProcessDispatcher(sandbox).)
import { http, type HttpHandler } from 'msw';
import type { FetchHandler } from '../client/in-process.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../emulator/sandbox.js';

export interface PaygateHandlersOptions {
  /** The base URL your app calls the gateway at, e.g. `https://gateway.example.com` (a path prefix is kept). */
  baseUrl: string;
  /**
   * What answers: a sandbox (`createSandbox()`), a `startSandbox()` result from `paygate/testing` (its `.sandbox`
   * is used), or any fetch handler. Default: a sandbox with a frozen clock created on the first request.
   */
  sandbox?: FetchHandler | { sandbox: FetchHandler } | undefined;
  /** Options of the sandbox created when none is given. Default: `{ frozenClock: true }`. */
  sandboxOptions?: SandboxOptions | undefined;
}

/** The handlers, and the sandbox behind them (created on the first request when none was given). */
export type PaygateHandlers = HttpHandler[] & {
  /** The sandbox answering (created now if it was not yet). */
  sandbox(): Promise<FetchHandler>;
  /** Close the sandbox this created (one passed in is yours to close). */
  close(): Promise<void>;
};

export function createPaygateHandlers(opts: PaygateHandlersOptions): PaygateHandlers {
  const base = new URL(opts.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const given = opts.sandbox && 'sandbox' in opts.sandbox ? opts.sandbox.sandbox : opts.sandbox;
  let created: Promise<Sandbox> | undefined;
  const target = async (): Promise<FetchHandler> =>
    given ?? (created ??= createSandbox(opts.sandboxOptions ?? { frozenClock: true }));
  const handler = http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    const init: RequestInit = { method: request.method, headers: request.headers };
    if (request.method !== 'GET' && request.method !== 'HEAD') init.body = await request.arrayBuffer();
    return (await target()).fetch(new Request(url, init));
  });
  return Object.assign([handler], {
    sandbox: target,
    async close() {
      if (created) await (await created).close();
    },
  });
}
