// The bare single-row INSERT the PostgreSQL benches compare the sandbox with (postgres.mjs, cluster.mjs): N
// connections, each inserting one row per statement (unique key, prepared, a ~400-byte body like a create's journal
// row), for `ms` after a 1 s warm-up, on a table of its own in the given database.
import pg from 'pg';

/** N connections inserting one row each per statement, for `ms`; `onMeasure` as load()'s. */
export async function bareInsert(url, ms, connections, onMeasure) {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query('CREATE TABLE bench_rows (id text PRIMARY KEY, body text NOT NULL)');
  await setup.end();
  const body = JSON.stringify({
    c: 'operations',
    v: { id: 'x'.repeat(36), status: 'pending', amount: '100.00', currency: 'RUB', pad: 'y'.repeat(300) },
  });
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let n = 0;
  let stop = false;
  let measuring = false;
  const lat = [];
  const worker = async (c, w) => {
    while (!stop) {
      const t0 = process.hrtime.bigint();
      await c.query({
        name: 'ins',
        text: 'INSERT INTO bench_rows (id, body) VALUES ($1, $2)',
        values: [`${w}-${n++}`, body],
      });
      if (measuring) lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  const running = clients.map(worker);
  await new Promise((r) => setTimeout(r, 1000));
  onMeasure?.(true);
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  measuring = false;
  onMeasure?.(false);
  const elapsed = performance.now() - t0;
  const count = lat.length;
  stop = true;
  await Promise.all(running);
  await Promise.all(clients.map((c) => c.end()));
  lat.sort((a, b) => a - b);
  return {
    rps: count / (elapsed / 1000),
    requests: count,
    p50: lat[Math.floor(count * 0.5)],
    p99: lat[Math.floor(count * 0.99)],
    errors: 0,
    non2xx: 0,
  };
}
