// The emulator answers exactly the routes of the two endpoint tables (plus its site routes: hosted pages, receipt
// downloads): every row is mounted once, with its dotted id, and answers its method; nothing else is mounted; a
// table and its handlers must match one to one; no /sandbox path is written outside src/contract.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { H3 } from 'h3';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, operationIdOf, sandboxControls, type EndpointRow } from '../../src/contract/index.js';
import { createApp, SITE_ROUTES } from '../../src/emulator/app.js';
import type { RouteContext } from '../../src/emulator/context.js';
import { createDashboard } from '../../src/emulator/dashboard/routes.js';
import { mountTable, routesOf } from '../../src/emulator/http/mount.js';
import type { Sandbox } from '../../src/emulator/index.js';
import { KEY_A } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { AmountReadGate } from '../../src/emulator/runtime/amount-reads.js';
import { FaultInjector } from '../../src/emulator/faults/injector.js';

const ROWS: EndpointRow[] = [...Object.values(endpoints), ...Object.values(sandboxControls)];
const UUID = '00000000-0000-4000-8000-000000000000';

const h = useSandbox({ per: 'file', frozenClock: true, adminToken: 'pg_admin_routes_test_0123456789' });
let sandbox: Sandbox;
let app: H3;

beforeAll(() => {
  sandbox = h.sandbox;
  app = createApp({
    service: sandbox.service,
    urls: sandbox.urls,
    adminToken: sandbox.adminToken!,
    urlSecret: new Uint8Array(32).fill(7),
    ready: () => true,
    outbox: sandbox.webhooks,
    log: () => undefined,
    amountReads: new AmountReadGate(sandbox.clock, () => sandbox.service.readSettings()),
    faults: new FaultInjector(sandbox.service),
  });
});

describe('route tables', () => {
  it('dotted ids are unique across both tables, and every control is keyed by its id', () => {
    const names = ROWS.map((r) => r.id);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(\.[a-z_]+)+$/);
    for (const [key, row] of [...Object.entries(endpoints), ...Object.entries(sandboxControls)])
      expect(row.id).toBe(key);
    const operationIds = ROWS.map(operationIdOf);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('one name per endpoint: a row carries its dotted id only, and the operationId is derived from it', () => {
    for (const row of ROWS) {
      expect(
        Object.keys(row).filter((k) => k === 'name' || k === 'operationId'),
        row.id,
      ).toEqual([]);
      expect(['none', 'key', 'admin', 'support'], row.id).toContain(row.auth);
    }
    expect(operationIdOf(endpoints['payout.create'])).toBe('payoutCreate');
    expect(operationIdOf(endpoints['payment.flexible_link'])).toBe('paymentFlexibleLink');
    expect(operationIdOf(sandboxControls['clock.advance'])).toBe('sandboxClockAdvance');
    expect(operationIdOf(sandboxControls['sandbox.reset'])).toBe('sandboxReset');
  });

  it('method + path identify one row', () => {
    const keys = ROWS.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every sandbox control lives under /sandbox and every gateway endpoint outside it', () => {
    for (const c of Object.values(sandboxControls)) expect(c.path.startsWith('/sandbox/')).toBe(true);
    for (const e of Object.values(endpoints)) expect(e.path.startsWith('/sandbox')).toBe(false);
  });
});

describe('the emulator mounts the tables and nothing else', () => {
  it('each row is mounted once, for its method and path, with its dotted id', () => {
    const mounted = routesOf(app);
    for (const row of ROWS) {
      const found = mounted.filter((m) => m.id === row.id);
      expect(found, row.id).toEqual([{ method: row.method, path: row.path, id: row.id }]);
    }
  });

  it('every mounted route is a table row, a site route, a dashboard route or the not-found fallback', () => {
    // The dashboard's routes come from its own table (building them reads nothing from the context).
    const dashboard = createDashboard({} as RouteContext).routes;
    const declared = new Set([
      ...ROWS.map((r) => `${r.method} ${r.path}`),
      ...SITE_ROUTES.map((s) => `${s.method} ${s.path}`),
      ...dashboard.map((r) => `${r.method} ${r.path}`),
      ' /**',
    ]);
    for (const m of routesOf(app))
      expect(declared.has(`${m.method} ${m.path}`), `${m.method} ${m.path} is not declared`).toBe(true);
    expect(routesOf(app)).toHaveLength(ROWS.length + SITE_ROUTES.length + dashboard.length + 1);
  });

  it.each(ROWS.map((r) => [r.id, r] as const))(
    '%s answers its method (not the route-not-found answer)',
    async (_name, row) => {
      const headers: Record<string, string> = {};
      const credential = row.auth;
      if (credential === 'key') headers['x-api-key'] = KEY_A;
      if (credential === 'admin') headers['x-admin-token'] = sandbox.adminToken!;
      const path = row.path.replace(/:([a-z_]+)/g, UUID);
      const hasBody = row.method !== 'GET' && row.method !== 'DELETE';
      if (hasBody) headers['content-type'] = 'application/json';
      const res = await app.fetch(
        new Request(`http://paygate.local${path}`, { method: row.method, headers, ...(hasBody ? { body: '{}' } : {}) }),
      );
      const text = await res.text();
      const code = text ? (JSON.parse(text) as { code?: string }).code : undefined;
      expect(code, `${row.method} ${path}: ${text}`).not.toBe('not_found');
      expect(code).not.toBe('method_not_allowed');
      expect(res.status).not.toBe(405);
    },
  );

  it('a route no table declares is the not-found answer', async () => {
    for (const [method, path] of [
      ['GET', '/sandbox/undeclared'],
      ['GET', '/v2/payment'],
    ] as const) {
      const res = await app.fetch(
        new Request(`http://paygate.local${path}`, {
          method,
          headers: { 'x-admin-token': sandbox.adminToken!, 'x-api-key': KEY_A },
        }),
      );
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'not_found', message: `no such endpoint: ${method} ${path}` });
    }
  });

  it('another method on a path of either table is 405 with Allow (a control path was once 404)', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/sandbox/clock', 'GET'],
      ['PUT', '/sandbox/webhooks', 'GET, POST'],
      ['GET', '/v1/payout', 'POST'],
    ] as const) {
      const res = await app.fetch(
        new Request(`http://paygate.local${path}`, {
          method,
          headers: { 'x-admin-token': sandbox.adminToken!, 'x-api-key': KEY_A },
        }),
      );
      expect([path, res.status, res.headers.get('allow')]).toEqual([path, 405, allow]);
      expect(await res.json()).toEqual({ code: 'method_not_allowed', message: `use ${allow} ${path}` });
    }
  });
});

describe('mountTable', () => {
  const table = {
    'a.show': { id: 'a.show', method: 'GET', path: '/a', summary: 'a', auth: 'none', errors: [] },
    'b.show': { id: 'b.show', method: 'GET', path: '/b', summary: 'b', auth: 'none', errors: [] },
  } as const satisfies Record<string, EndpointRow>;
  const ctx = () => ({}) as Parameters<typeof mountTable>[3];

  it('refuses a row without a handler', () => {
    const handlers = { 'a.show': () => ({}) } as unknown as Parameters<typeof mountTable<typeof table>>[2];
    expect(() => mountTable(new H3(), table, handlers, ctx())).toThrow('no handler for GET /b (b.show)');
  });

  it('refuses a handler without a row', () => {
    const handlers = { 'a.show': () => ({}), 'b.show': () => ({}), 'c.show': () => ({}) };
    expect(() => mountTable(new H3(), table, handlers, ctx())).toThrow(
      'handler c.show has no row in the endpoint table',
    );
  });
});

describe('paths are written once', () => {
  /** Source files of src/, comments stripped. */
  function* sources(dir: string): Generator<[string, string]> {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) yield* sources(file);
      else if (file.endsWith('.ts'))
        yield [
          file,
          readFileSync(file, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/^\s*\/\/.*$/gm, ''),
        ];
    }
  }

  it('no /sandbox path literal outside src/contract', () => {
    const root = new URL('../../src/', import.meta.url).pathname;
    const offenders: string[] = [];
    for (const [file, text] of sources(root)) {
      if (file.startsWith(join(root, 'contract'))) continue;
      if (/['"`]\/sandbox\b/.test(text)) offenders.push(file.slice(root.length));
    }
    expect(offenders).toEqual([]);
  });
});
