// How a group's transactions reach PostgreSQL (src/store/postgres/pipeline.ts): one text parameter, a transaction per
// line, split by the server — not a text[] array literal, whose every quote node-postgres escapes and the server
// parses back. Each transaction is still its own journal row, numbered in order, read back byte for byte; the writer
// stores it lz4-compressed where the server can (src/store/postgres/session.ts).
import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { appendQuery } from '../../src/store/postgres/pipeline.js';
import { PackedMap } from '../../src/store/packed-map.js';
import type { Change, Persistence } from '../../src/store/persistence.js';
import { pgDescribe, useCluster } from './fixture.js';

const cluster = useCluster();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Values a JSON text escapes: quotes, backslashes, newlines and tabs inside strings, non-ASCII, U+2028. */
const awkward = (i: number): Change[] => [
  {
    c: 'meta',
    v: {
      id: `m${i}`,
      text: `"quoted" \\ back\\slash {braces}, a "${i}"\nnew line\ttab ünïcödé € 😀 \u2028 \u0001 NULL`,
    },
  },
];

pgDescribe('journal rows on the wire', () => {
  it('a group of transactions goes as one text parameter and comes back as one row each, in order, unchanged', async () => {
    const url = await cluster.get().createDatabase();
    const sent: unknown[][] = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as { name?: string; values?: unknown[] };
      if (config?.name?.startsWith('paygate_journal_append')) sent.push(config.values!);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    const backend = new PostgresBackend({ url });
    const p = backend.workspace('default').persistence as unknown as Persistence;
    try {
      await p.open();
      // Committed in one turn: the backend's own group writer writes them in one statement.
      await Promise.all([1, 2, 3, 4, 5].map((i) => p.commit(awkward(i))));
      await p.writeGroup(awkward(6));
    } finally {
      await backend.close();
    }
    expect(sent.length).toBe(2);
    for (const values of sent) expect(values.every((v) => !Array.isArray(v))).toBe(true);
    expect(sent[0]!.slice(0, 3)).toEqual([
      'default',
      1,
      [1, 2, 3, 4, 5].map((i) => JSON.stringify(awkward(i))).join('\n'),
    ]);
    expect(sent[1]!.slice(0, 3)).toEqual(['default', 6, JSON.stringify(awkward(6))]);

    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query<{ seq: number; tx: string }>(
        'SELECT seq::int, tx FROM paygate_journal ORDER BY seq',
      );
      expect(rows).toEqual([1, 2, 3, 4, 5, 6].map((i) => ({ seq: i, tx: JSON.stringify(awkward(i)) })));
    } finally {
      await c.end();
    }
    const again = new PostgresBackend({ url });
    try {
      const all = await (again.workspace('default').persistence as unknown as Persistence).open();
      expect(all.meta).toEqual([1, 2, 3, 4, 5, 6].map((i) => awkward(i)[0]!.v));
    } finally {
      await again.close();
    }
  }, 30_000);

  it('an entity written to the journal cools to the text written, not serialised a second time (as on the file store)', async () => {
    const url = await cluster.get().createDatabase();
    const backend = new PostgresBackend({ url });
    const p = backend.workspace('default').persistence as unknown as Persistence;
    const a = { id: 'a', note: 'ä "q"' };
    try {
      await p.open();
      await p.writeGroup([{ c: 'things', v: a }]);
    } finally {
      await backend.close();
    }
    const map = new PackedMap<{ id: string; note: string }>(1, 4);
    map.set('a', a);
    const stringify = vi.spyOn(JSON, 'stringify');
    map.set('b', { id: 'b', note: 'plain' }); // a cools
    expect(stringify.mock.calls.filter(([v]) => v === a)).toEqual([]);
    expect(map.raw('a')).toBe(JSON.stringify(a));
  }, 30_000);

  it('a journal row is stored lz4-compressed where the server has lz4; rows stored with pglz before still load', async () => {
    const url = await cluster.get().createDatabase();
    const big = (id: string): Change[] => [{ c: 'meta', v: { id, pad: `${id} `.repeat(2000) } }];
    const first = new PostgresBackend({ url });
    try {
      await (first.workspace('default').persistence as unknown as Persistence).open();
    } finally {
      await first.close();
    }
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      // As an earlier paygate wrote it: the server's default compression.
      await c.query(`SET default_toast_compression = 'pglz'`);
      await c.query('INSERT INTO paygate_journal (workspace, seq, tx) VALUES ($1, 1, $2)', [
        'default',
        JSON.stringify(big('old')),
      ]);
      const backend = new PostgresBackend({ url });
      try {
        const p = backend.workspace('default').persistence as unknown as Persistence;
        expect((await p.open()).meta?.map((m) => m.id)).toEqual(['old']);
        await p.writeGroup(big('new'));
      } finally {
        await backend.close();
      }
      const { rows } = await c.query<{ seq: number; method: string | null }>(
        'SELECT seq::int, pg_column_compression(tx) AS method FROM paygate_journal ORDER BY seq',
      );
      const lz4 = (
        await c.query(`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`)
      ).rows[0]?.ok;
      expect(rows).toEqual([
        { seq: 1, method: 'pglz' },
        { seq: 2, method: lz4 ? 'lz4' : 'pglz' },
      ]);
    } finally {
      await c.end();
    }
    const again = new PostgresBackend({ url });
    try {
      const all = await (again.workspace('default').persistence as unknown as Persistence).open();
      expect(all.meta).toEqual([big('old')[0]!.v, big('new')[0]!.v]);
    } finally {
      await again.close();
    }
  }, 30_000);

  it('a body with a raw newline (never JSON.stringify output) is refused before anything is sent', () => {
    expect(() => appendQuery('default', 1, ['{"a":1}', '{"b":\n2}'], false, undefined)).toThrow(/raw newline/);
  });
});
