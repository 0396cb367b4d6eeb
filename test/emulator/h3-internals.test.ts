// The one adapter into h3's and Node's internals (src/emulator/http/h3-internals.ts), pinned to the installed h3: if
// an upgrade moves the private response key, the route list or the Node request, this fails first. Every JSON
// answer — a route's, an error's, a probe's — carries the one content type.
import { createRequire } from 'node:module';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { H3, H3Event } from 'h3';
import { toNodeHandler } from 'h3/node';
import { describe, expect, it } from 'vitest';
import { ApiError, errorResponse } from '../../src/emulator/http/errors.js';
import {
  H3_VERSION,
  JSON_TYPE,
  h3Routes,
  jsonTypeProblem,
  nodeRequest,
  resUntouched,
} from '../../src/emulator/http/h3-internals.js';
import { jsonAnswer } from '../../src/emulator/http/response.js';

const require = createRequire(import.meta.url);

describe('h3 internals', () => {
  it('are read from the installed h3 version', () => {
    expect((require('h3/package.json') as { version: string }).version).toBe(H3_VERSION);
  });

  it("finds the private key of an event's response settings: untouched until a route sets a status or header", () => {
    const event = new H3Event(new Request('http://localhost/x'));
    expect(resUntouched(event)).toBe(true);
    event.res.status = 201;
    expect(resUntouched(event)).toBe(false);
  });

  it("lists the app's routes with their meta", () => {
    const app = new H3();
    app.on('POST', '/v1/payment', () => ({}), { meta: { id: 'payment.create' } });
    expect(h3Routes(app)).toEqual([{ method: 'POST', route: '/v1/payment', meta: { id: 'payment.create' } }]);
  });

  it('reaches the Node request on a real server, and none in process', async () => {
    const seen: (IncomingMessage | undefined)[] = [];
    const app = new H3();
    app.get('/', (event) => {
      seen.push(nodeRequest(event));
      return { ok: true };
    });
    const server = createServer(toNodeHandler(app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(r.headers.get('content-type')).toBe(JSON_TYPE); // h3's own spelling is the one used everywhere
      await app.fetch(new Request('http://localhost/'));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    expect(seen[0]?.headers.host).toMatch(/^127\.0\.0\.1:/);
    expect(seen[1]).toBeUndefined();
  });

  it('one content type for every JSON answer: a route built directly, an error', () => {
    const event = new H3Event(new Request('http://localhost/'));
    expect(jsonAnswer(event, { a: 1 }, 200).headers.get('content-type')).toBe(JSON_TYPE);
    expect(errorResponse(new ApiError('not_found', 'no')).headers.get('content-type')).toBe(JSON_TYPE);
  });

  it('remembers the last accepted content type and asks the check again for any other', () => {
    const seen: string[] = [];
    const check = (type: string) => (seen.push(type), type.startsWith('application/json') ? undefined : 'not JSON');
    expect(jsonTypeProblem('application/json; x=1', check)).toBeUndefined();
    expect(jsonTypeProblem('application/json; x=1', check)).toBeUndefined();
    expect(jsonTypeProblem('text/plain', check)).toBe('not JSON');
    expect(jsonTypeProblem('text/plain', check)).toBe('not JSON');
    expect(seen).toEqual(['application/json; x=1', 'text/plain', 'text/plain']);
  });
});
