// A Transport (src/client/wire.ts) into a sandbox's fetch handler, for running src/verify in process; `seen`
// collects every request body sent, so a test can tell which ids verify named.
import type { Transport } from '../../src/client/wire.js';
import type { Sandbox } from '../../src/emulator/index.js';

export function sandboxTransport(sandbox: Sandbox, seen: string[] = []): Transport {
  return async ({ url, method, headers, body }) => {
    if (typeof body === 'string') seen.push(body);
    const init: RequestInit = { method, headers, ...(body !== undefined ? { body: body as string } : {}) };
    const res = await sandbox.fetch(new Request(url, init));
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  };
}
