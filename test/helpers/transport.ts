// Owns the two transports a suite can run on — 'in-process' (a WHATWG fetch handler reached through
// createInProcessDispatcher, no socket) and 'http' (a real server on 127.0.0.1, port 0, reached through an undici
// Agent) — describeTransports, which runs a suite once on each, a port nobody listens on, and the Paygate retry sleep
// that returns at once.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { describe } from 'vitest';
import { createInProcessDispatcher, type FetchHandler } from '../../src/client/index.js';

export type Transport = 'in-process' | 'http';
export const TRANSPORTS: readonly Transport[] = ['in-process', 'http'];

/**
 * `describe(`${name} (in-process)`)` and `describe(`${name} (http)`)`, each calling `fn` with its transport. For suites
 * that test HTTP itself (the client's transport, retries, errors and headers on the wire, the emulator's HTTP
 * behaviour); every other suite runs in-process only.
 */
export function describeTransports(
  name: string,
  fn: (transport: Transport) => void,
  transports: readonly Transport[] = TRANSPORTS,
): void {
  for (const transport of transports) describe(`${name} (${transport})`, () => fn(transport));
}

/** A dispatcher that reaches `handler` in-process, or anything over real sockets (an Agent) for 'http'. */
export function dispatcherFor(transport: Transport, handler: FetchHandler): Dispatcher {
  return transport === 'http' ? new Agent() : createInProcessDispatcher(handler);
}

/** A sleep that returns at once and records what it was asked to wait. */
export function instantSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

/** A port of 127.0.0.1 that was just bound and closed, so nothing listens on it (until someone takes it again). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
