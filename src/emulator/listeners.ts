// The servers a sandbox listens with, over HTTP or (`https`) TLS, serving one fetch handler: the default workspace's
// requests and, through the workspace host, every other workspace's (split from sandbox.ts).
import type { RequestListener, Server } from 'node:http';
import type { H3 } from 'h3';
import { listenTls, type SandboxTls } from './tls.js';
import { limitConnections, serverOptions } from './connection-limits.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './server-limits.js';

/** Listen over plain HTTP on `port` (0: any free one) of `host`. */
async function listenHttp(
  handler: RequestListener,
  port: number,
  host: string,
  limits: ConnectionLimits,
): Promise<Server> {
  const { createServer } = await import('node:http');
  const server = createServer(serverOptions(limits), handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Over TLS (src/emulator/tls.ts): the store the certificate is kept beside, the public URL it must name. */
export type HttpsContext = { store: string | undefined; publicUrl: string | undefined };

/** The servers a sandbox listens with, over HTTP or (`https`) TLS, and the certificate it serves. */
export class Listeners {
  readonly #servers: Server[] = [];
  readonly #disposals: Array<() => void> = [];
  #tls: SandboxTls | undefined;

  constructor(
    /** What answers every request. */
    readonly fetch: (request: Request) => Response | Promise<Response>,
    readonly https: HttpsContext | undefined,
    /** Learns the URL a server is reachable at. */
    readonly onUrl: (url: string) => unknown,
    /** Connections, request timeouts and keep-alive (src/emulator/connection-limits.ts). */
    readonly limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
    readonly log: (line: string) => void = () => undefined,
  ) {}

  get tls(): SandboxTls | undefined {
    return this.#tls;
  }

  /** Listen on `port` (0: any free one) of `host`. */
  async listen({
    port = 0,
    host = '127.0.0.1',
  }: {
    port?: number;
    host?: string;
  }): Promise<{ url: string; server: Server; tls?: SandboxTls }> {
    const { toNodeHandler } = await import('h3/node');
    // h3's adapter only reads the app's fetch.
    const handler = toNodeHandler({ fetch: this.fetch } as unknown as H3) as RequestListener;
    const secure = this.https ? await listenTls(handler, { port, host, ...this.https }) : undefined;
    const server = secure?.server ?? (await listenHttp(handler, port, host, this.limits));
    limitConnections(server, this.limits, secure !== undefined, this.log);
    this.#servers.push(server);
    if (secure) this.#disposals.push(secure.dispose);
    this.#tls ??= secure?.tls;
    const addr = server.address();
    const actual = typeof addr === 'object' && addr ? addr.port : port;
    const url = `${secure ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${actual}`;
    this.onUrl(url);
    return { url, server, ...(secure ? { tls: secure.tls } : {}) };
  }

  async close(): Promise<void> {
    await Promise.all(this.#servers.map(stopServer));
    for (const dispose of this.#disposals.splice(0)) dispose();
  }
}

function stopServer(s: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections?.();
  });
}
