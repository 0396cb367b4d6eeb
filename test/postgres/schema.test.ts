// Schema migrations: a database made by an older version (schema 1: no files/secrets tables yet) opens and keeps
// its data; a database from a newer paygate is refused with both versions named and nothing changed; two
// processes starting together migrate once.
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { migrate, SCHEMA_VERSION } from '../../src/store/postgres/schema.js';
import { pgDescribe, useCluster } from './fixture.js';

const cluster = useCluster();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => {});
});

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  closers.push(() => c.end());
  return c;
}

function backend(url: string): PostgresBackend {
  const b = new PostgresBackend({ url });
  closers.push(() => b.close());
  return b;
}

pgDescribe('PostgreSQL schema migrations', () => {
  it('a store made at schema 1 opens with this version: migrated forward, its journal kept', async () => {
    const url = await cluster.get().createDatabase();
    const old = await client(url);
    expect(await migrate(old, 'test', 1)).toBe(0);
    await old.query("INSERT INTO paygate_journal (workspace, seq, tx) VALUES ('default', 1, $1)", [
      JSON.stringify([{ c: 'operations', v: { id: 'from-v1' } }]),
    ]);
    const ws = backend(url).workspace('default');
    expect(await ws.persistence.open()).toEqual({ operations: [{ id: 'from-v1' }] });
    await ws.files.put('r1', new Uint8Array([9]));
    expect((await old.query('SELECT max(version) AS v FROM paygate_schema')).rows[0].v).toBe(SCHEMA_VERSION);
    await ws.persistence.close();
  });

  it('a store from a newer paygate is refused, naming both versions, and left unchanged', async () => {
    const url = await cluster.get().createDatabase();
    const c = await client(url);
    await migrate(c, 'test');
    await c.query("INSERT INTO paygate_schema (version, description) VALUES (99, 'from the future')");
    const err = await backend(url)
      .workspace('default')
      .persistence.open()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'store_schema' });
    expect((err as Error).message).toMatch(/schema version 99, newer than this paygate knows \(2\).*Upgrade paygate/);
    expect((await c.query('SELECT count(*)::int AS n FROM paygate_schema')).rows[0].n).toBe(SCHEMA_VERSION + 1);
  });

  it('processes starting together migrate once', async () => {
    const url = await cluster.get().createDatabase();
    const [a, b, d] = [backend(url), backend(url), backend(url)];
    await Promise.all([a.connect(), b.connect(), d.connect()]);
    const c = await client(url);
    expect((await c.query('SELECT version FROM paygate_schema ORDER BY version')).rows.map((r) => r.version)).toEqual([
      1, 2,
    ]);
  });

  it('a gap in the journal or a row that is not JSON is store_corrupt, naming the transaction; nothing is written', async () => {
    const url = await cluster.get().createDatabase();
    const c = await client(url);
    await migrate(c, 'test');
    const tx = (id: string) => JSON.stringify([{ c: 'operations', v: { id } }]);
    await c.query(
      "INSERT INTO paygate_journal (workspace, seq, tx) VALUES ('default', 1, $1), ('default', 3, $2), ('other', 1, '{oops')",
      [tx('a'), tx('c')],
    );
    const gap = await backend(url)
      .workspace('default')
      .persistence.open()
      .catch((e: unknown) => e);
    expect(gap).toMatchObject({ code: 'store_corrupt' });
    expect((gap as Error).message).toMatch(/transaction 2 is missing \(the next one is 3\)/);
    // The remedies are the database's, not a file's.
    expect((gap as Error).message).toMatch(/Nothing was changed\. Repair that row of paygate_journal .*--reset/);
    expect((gap as Error).message).not.toMatch(/--in-memory|\.journal\b|the file/i);
    const bad = await backend(url)
      .workspace('other')
      .persistence.open()
      .catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/workspace other.*not valid JSON/);
    expect((bad as Error).message).toMatch(/Nothing was changed/);
    expect((await c.query('SELECT count(*)::int AS n FROM paygate_snapshot')).rows[0].n).toBe(0);
    expect((await c.query('SELECT count(*)::int AS n FROM paygate_journal')).rows[0].n).toBe(3);
  });
});
