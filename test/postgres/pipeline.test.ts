// Pipelined group writes on PostgreSQL (issue 29, src/store/postgres/pipeline.ts): a workspace's next group is sent
// while the one before it is in flight, on the lease holder's pipelined connection. A group whose predecessor fails
// in the database is not written and not acknowledged, and the sequence goes on without a gap; a crash of the
// database server in the middle of the pipeline loses nothing acknowledged.
import pg from 'pg';
import { expect, it } from 'vitest';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { ChainBrokenError } from '../../src/store/postgres/pipeline.js';
import type { Change, Persistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import { pgDescribe, useCluster } from './fixture.js';

const cluster = useCluster();

const meta = (id: string, extra: Record<string, unknown> = {}): Change[] => [{ c: 'meta', v: { id, ...extra } }];

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

pgDescribe('pipelined group writes', () => {
  it('a group sent while the one before it fails in the database is not written either; the next goes on after the last written', async () => {
    const url = await cluster.get().createDatabase();
    const backend = new PostgresBackend({ url });
    const p = backend.workspace('default').persistence as unknown as Persistence;
    try {
      await p.open();
      expect(backend.pipelined).toBe(true);
      // The database refuses a journal row marked FAILME, after a while (the next group is on its way meanwhile).
      await sql(
        url,
        `CREATE FUNCTION test_fail_marked() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.tx LIKE '%FAILME%' THEN PERFORM pg_sleep(0.3); RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$;
         CREATE TRIGGER test_fail_marked BEFORE INSERT ON paygate_journal FOR EACH ROW EXECUTE FUNCTION test_fail_marked();`,
      );
      await p.writeGroup(meta('m0'));
      const a = p.writeGroup(meta('m1', { mark: 'FAILME' }));
      const b = p.writeGroup(meta('m2')); // sent while a is in flight, chained to it
      const outcomes = await Promise.allSettled([a, b]);
      expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: { message: 'injected failure' } });
      expect(outcomes[1]).toMatchObject({ status: 'rejected' });
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(ChainBrokenError);
      expect(await sql(url, 'SELECT seq::int, tx FROM paygate_journal ORDER BY seq')).toEqual([
        { seq: 1, tx: JSON.stringify(meta('m0')) },
      ]);
      // The next group takes the seq after the last one written: no gap, and what follows opens.
      await p.writeGroup(meta('m3'));
      const c = p.writeGroup(meta('m4'));
      const d = p.writeGroup(meta('m5'));
      await Promise.all([c, d]);
      expect(await sql(url, 'SELECT seq::int FROM paygate_journal ORDER BY seq')).toEqual(
        [1, 2, 3, 4].map((seq) => ({ seq })),
      );
    } finally {
      await backend.close();
    }
    const again = new PostgresBackend({ url });
    try {
      const all = await (again.workspace('default').persistence as unknown as Persistence).open();
      expect(all.meta?.map((m) => m.id)).toEqual(['m0', 'm3', 'm4', 'm5']);
    } finally {
      await again.close();
    }
  }, 30_000);

  it('a crash of the database server in the middle of the pipeline loses nothing acknowledged', async () => {
    const url = await cluster.get().createDatabase();
    const backend = new PostgresBackend({ url });
    const persistence = backend.workspace('default').persistence;
    // How many groups were in flight at once: the pipeline was in use.
    let flying = 0;
    let most = 0;
    const writeGroup = persistence.writeGroup.bind(persistence);
    persistence.writeGroup = (changes) => {
      most = Math.max(most, ++flying);
      return writeGroup(changes).finally(() => flying--);
    };
    const store = new Store(persistence);
    await store.open();
    const acked: string[] = [];
    const refused: string[] = [];
    let stop = false;
    // An open loop: a few commits every turn, whatever is in flight (at most 200 waiting), as many clients would.
    const produce = async () => {
      for (let i = 0; !stop; i++) {
        if (acked.length + refused.length < i - 200) await new Promise((r) => setTimeout(r, 1));
        const id = `c${i}`;
        void store.commit([{ kind: 'meta', meta: { id, i } }]).then(
          () => acked.push(id),
          () => refused.push(id),
        );
        if (i % 3 === 0) await new Promise((r) => setImmediate(r));
      }
      await store.sync();
    };
    const load = produce();
    try {
      while (acked.length < 400) await new Promise((r) => setTimeout(r, 5));
      await cluster.get().crash({
        down: async () => {
          stop = true;
          await load;
        },
      });
      await load;
      expect(most).toBe(2);
      expect(refused.length).toBeGreaterThan(0);
    } finally {
      await backend.close();
    }
    const again = new PostgresBackend({ url });
    try {
      const all = await (again.workspace('default').persistence as unknown as Persistence).open();
      const stored = new Set(all.meta?.map((m) => m.id));
      const lost = acked.filter((id) => !stored.has(id));
      process.stderr.write(
        `pipeline crash: ${acked.length} commits acknowledged, ${lost.length} lost, ${refused.length} refused\n`,
      );
      expect(lost).toEqual([]);
    } finally {
      await again.close();
    }
  }, 60_000);
});
