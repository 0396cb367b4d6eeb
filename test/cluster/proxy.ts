// A TCP proxy the tests control, between a cluster process and PostgreSQL: `hold()` stops passing bytes on (both
// ways, every connection; they are kept and passed on by `release()`), as a network partition that drops nothing
// would; `cut()` closes every connection. 127.0.0.1, port 0; `close()` ends it.
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface Proxy {
  port: number;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startProxy(target: number): Promise<Proxy> {
  let held = false;
  const pending: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const pipe = (from: Socket, to: Socket) =>
    from.on('data', (d: Buffer) => {
      if (held) pending.push(() => to.write(d));
      else to.write(d);
    });
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    hold: () => void (held = true),
    release() {
      held = false;
      for (const fn of pending.splice(0)) fn();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
