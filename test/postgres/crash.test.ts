// A crash of the PostgreSQL server itself (SIGQUIT to the postmaster, what `pg_ctl stop -m immediate` does: the WAL
// not yet written out is gone) under create load on a `paygate sandbox start --store postgres://…` process (from
// dist/), with the default commit mode. Nothing acknowledged is lost: each 200 waited for the WAL flush.
// While the database is down, what was in flight and every new create answers 503 store_unavailable, never a
// connection reset; once it is back the same process serves again, writes succeed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect, it } from 'vitest';
import { KEY_A } from '../helpers/harness.js';
import { backendFor } from '../../src/store/backend.js';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { pgDescribe, useCluster } from './fixture.js';

const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const cluster = useCluster();

function start(
  store: string,
  extra: string[] = [],
): { child: ChildProcess; base: Promise<string>; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--store', store, '--port', '0', '--json', '--frozen-clock', ...extra],
    {
      env: { ...process.env, PAYGATE_ADMIN_TOKEN: 'pg_admin_crash_test', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, sig) => reject(new Error(`sandbox exited (${code ?? sig}): ${err}`))),
  );
  exited.catch(() => {});
  const line = new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return {
    child,
    base: Promise.race([line, exited]).then((l) => (JSON.parse(l) as { base_url: string }).base_url),
    stderr: () => err,
  };
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  return gone;
}

const create = (base: string, mop: string) =>
  fetch(`${base}/v1/payment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
    body: JSON.stringify({
      merchant_operation_id: mop,
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '100.00',
      currency: 'RUB',
    }),
  });

type Outcome = { mop: string; status: number; code?: string; id?: string } | { mop: string; error: string };

pgDescribe('a crash of the PostgreSQL server', () => {
  it('under 20-way create load loses no acknowledged create; meanwhile creates answer 503 store_unavailable, then succeed again', async () => {
    const url = await cluster.get().createDatabase();
    const proc = start(url);
    try {
      const base = await proc.base;
      const outcomes: Outcome[] = [];
      let phase: 'up' | 'down' | 'stop' = 'up';
      const downOutcomes: Outcome[] = [];
      let acked = 0;
      let readyWhileDown = 0;
      const worker = async (w: number) => {
        for (let i = 0; phase !== 'stop'; i++) {
          const mop = `cr-${w}-${i}`;
          const sentDown = phase === 'down';
          let o: Outcome;
          try {
            const res = await create(base, mop);
            const body = (await res.json()) as { operation_id?: string; code?: string };
            o = {
              mop,
              status: res.status,
              ...(body.operation_id ? { id: body.operation_id } : {}),
              ...(body.code ? { code: body.code } : {}),
            };
            if (res.status === 200) acked++;
          } catch (e) {
            o = { mop, error: String((e as Error).cause ?? e) };
          }
          outcomes.push(o);
          if (sentDown) downOutcomes.push(o);
        }
      };
      // A create waiting on the provider (`+slow`: 10 s of a frozen sandbox clock) when the database goes away.
      const slow = fetch(`${base}/v1/payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
        body: JSON.stringify({
          merchant_operation_id: 'cr-slow',
          client_id: 'alice+slow',
          method: 'WT_RUB_C2C',
          amount: '100.00',
          currency: 'RUB',
        }),
      }).then(
        async (r) => ({ status: r.status, code: ((await r.json()) as { code?: string }).code }),
        (e: unknown) => ({ status: 0, code: String(e) }),
      );
      const load = Promise.all(Array.from({ length: 20 }, (_, w) => worker(w)));
      while (acked < 300) await new Promise((r) => setImmediate(r));
      // Crash the server under load; while it is down the load goes on: the creates in flight at the crash and
      // those sent after it (at least 100) are answered. Then the load stops and the server starts again.
      await cluster.get().crash({
        down: async () => {
          phase = 'down';
          while (downOutcomes.length < 100) await new Promise((r) => setTimeout(r, 10));
          // Not ready meanwhile: a load balancer checking /readyz sends the traffic to a standby, if any.
          const probe = await fetch(`${base}/readyz`);
          await probe.text();
          readyWhileDown = probe.status;
          phase = 'stop';
          await load;
        },
      });
      await load;
      expect(await slow).toEqual({ status: 503, code: 'store_unavailable' });

      const errors = outcomes.filter((o) => 'error' in o);
      expect(errors, 'no connection reset or refusal').toEqual([]);
      const failed = outcomes.filter(
        (o): o is Extract<Outcome, { status: number }> => 'status' in o && o.status !== 200,
      );
      expect(failed.length).toBeGreaterThan(0);
      for (const o of failed)
        expect({ status: o.status, code: o.code }, o.mop).toEqual({ status: 503, code: 'store_unavailable' });
      for (const o of downOutcomes) expect('status' in o && o.status, o.mop).toBe(503);

      // The same process serves again once the database is back (it retries every second).
      let back: Response | undefined;
      for (let i = 0; i < 200 && back?.status !== 200; i++) {
        if (back) await back.text();
        back = await create(base, `cr-back-${i}`).catch(() => undefined);
        if (back?.status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(back?.status, proc.stderr()).toBe(200);
      await back!.json();
      expect(readyWhileDown).toBe(503);
      expect((await fetch(`${base}/readyz`)).status).toBe(204);

      // Every acknowledged create survived the crash: it is in what the database holds (journal and snapshot, read
      // in one statement). Operation ids are derived from the merchant_operation_id, so a retried create could not tell.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const { rows } = await db.query<{ t: string }>(
        "SELECT tx AS t FROM paygate_journal WHERE workspace = 'default' UNION ALL SELECT collections::text FROM paygate_snapshot WHERE workspace = 'default'",
      );
      await db.end();
      const stored = rows.map((r) => r.t).join('\n');
      const ackedOps = outcomes.filter((o) => 'status' in o && o.status === 200);
      const lost = ackedOps.filter((o) => !stored.includes(`"${o.mop}"`)).map((o) => o.mop);
      process.stderr.write(
        `database crash: ${ackedOps.length} creates acknowledged, ${lost.length} lost, ${failed.length} answered 503 store_unavailable\n`,
      );
      expect(lost).toEqual([]);
      expect(proc.stderr()).toMatch(/503 store_unavailable until the database is back/);
    } finally {
      await kill(proc.child);
    }
  }, 60_000);

  it('the writer waits for the WAL flush unless told not to (--no-fsync); the file store keeps its own default', async () => {
    const url = await cluster.get().createDatabase();
    // The test cluster runs with synchronous_commit = off: the writer sets its own either way.
    for (const [fsync, expected] of [
      [undefined, 'on'],
      [true, 'on'],
      [false, 'off'],
    ] as const) {
      const backend = (await backendFor(url, fsync)) as PostgresBackend;
      try {
        const { rows } = await (
          await backend.connect()
        ).query<{ synchronous_commit: string }>('SHOW synchronous_commit');
        expect(rows[0]!.synchronous_commit, `fsync ${fsync}`).toBe(expected);
      } finally {
        await backend.close();
      }
    }
    expect(((await backendFor('/tmp/never-opened.json')) as unknown as { opts: { fsync: boolean } }).opts.fsync).toBe(
      false,
    );
  });
});
