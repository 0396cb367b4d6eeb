// The connection limits of a sandbox's server (src/emulator/server-limits.ts): how long a request may take to
// arrive (Node's headersTimeout and requestTimeout, both answered 408 and the connection closed; neither covers the
// answer, so an event stream lives on), how long an idle keep-alive connection is kept, and how many connections
// are open at once. A connection past the cap is refused clearly: over plain HTTP it is answered `503
// connections_full` with Retry-After and closed, without a request being read; over TLS, once the handshake is done,
// the same. The refusals are logged at most once a minute.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { memoryRelease } from './memory-release.js';
import { LIMIT_RETRY_AFTER_S, type ConnectionLimits } from './server-limits.js';

/** How long a refused connection may stay open for its client to read the answer, in ms. */
const REFUSED_LINGER_MS = 2000;
const LOG_EVERY_MS = 60_000;

/** Node's server options for the request timeouts (connectionsCheckingInterval is only taken at creation). */
export function serverOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
}

function refusal(limit: number): string {
  const body = JSON.stringify({
    code: 'connections_full',
    message: `the sandbox already has ${limit} connections open; retry in ${LIMIT_RETRY_AFTER_S} s`,
  });
  return [
    'HTTP/1.1 503 Service Unavailable',
    'content-type: application/json; charset=utf-8',
    'cache-control: no-store',
    `retry-after: ${LIMIT_RETRY_AFTER_S}`,
    'connection: close',
    `content-length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/** Apply `limits` to `server` (created with serverOptions over HTTP; a TLS server gets the timeouts set here). */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  secure: boolean,
  log: (line: string) => void,
): { open(): number } {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // The server's own handlers of a new connection run only for the connections admitted.
  const event = secure ? 'secureConnection' : 'connection';
  const handlers = server.listeners(event) as Array<(socket: Socket) => void>;
  server.removeAllListeners(event);
  const answer = refusal(limits.maxConnections);
  let open = 0;
  let refused = 0;
  let loggedAt = -Infinity;
  server.on(event, (socket: Socket) => {
    if (open >= limits.maxConnections) {
      refused++;
      const now = Date.now();
      if (now - loggedAt >= LOG_EVERY_MS) {
        loggedAt = now;
        log(
          `refused a connection: ${open} are open, the limit (--max-connections) is ${limits.maxConnections}; ${refused} refused so far`,
        );
      }
      socket.on('error', () => undefined);
      socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
      socket.resume();
      socket.end(answer);
      return;
    }
    open++;
    // The process's memory release (src/emulator/memory-release.ts), when `sandbox start` asked for one.
    const release = memoryRelease();
    release?.opened();
    socket.once('close', () => {
      open--;
      release?.closed();
    });
    for (const h of handlers) h.call(server, socket);
  });
  return { open: () => open };
}
