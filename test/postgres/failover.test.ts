// High availability on PostgreSQL, for real: two `paygate sandbox start` processes (from dist/) on one database.
// One serves, the other stands by (/readyz 503 `standby`). The active one is SIGKILLed under create load; the standby
// takes over within 5 s; every acknowledged create is there; a client retrying with the same merchant_operation_id
// gets the same operation; and after the timers run on the new active one, the receiver never sees one event under
// two webhook-ids (a duplicate delivery carries the same webhook-id, so the receiver can drop it).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { KEY_A } from '../helpers/harness.js';
import { startReceiver } from '../webhooks/receiver.js';
import { killLeaseHolder, killWriterSessions, pgDescribe, useCluster } from './fixture.js';

const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const ADMIN = 'pg_admin_failover_test';
const cluster = useCluster();

interface Proc {
  child: ChildProcess;
  /** The first stdout line (the JSON startup info) once active. */
  active: Promise<{ base_url: string }>;
  /** The standby's URL, once it stands by. */
  standby: Promise<string>;
  stderr: () => string;
}

function start(store: string, hook: string, extra: string[] = []): Proc {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'sandbox',
      'start',
      '--store',
      store,
      '--port',
      '0',
      '--json',
      '--frozen-clock',
      '--webhook-url',
      hook,
      ...extra,
    ],
    {
      env: { ...process.env, PAYGATE_ADMIN_TOKEN: ADMIN, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, sig) => reject(new Error(`sandbox exited (${code ?? sig}): ${err}`))),
  );
  exited.catch(() => {});
  const standby = new Promise<string>((resolve) =>
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const m = /standing by on (http:\/\/[\d.]+:\d+)/.exec(err);
      if (m) resolve(m[1]!);
    }),
  );
  const active = Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
    exited,
  ]).then((l) => JSON.parse(l) as { base_url: string });
  const standingBy = Promise.race([standby, exited]);
  // Each process ends killed: a promise it never fulfilled is not an error.
  active.catch(() => {});
  standingBy.catch(() => {});
  return { child, active, standby: standingBy, stderr: () => err };
}

function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill(signal);
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

pgDescribe('failover on PostgreSQL', () => {
  it('a standby takes over within 5 s of the active one being SIGKILLed under load; nothing acknowledged is lost or doubled', async () => {
    const url = await cluster.get().createDatabase();
    const rx = await startReceiver();
    const procs: Proc[] = [];
    try {
      const a = start(url, rx.url);
      procs.push(a);
      const aBase = (await a.active).base_url;
      const b = start(url, rx.url);
      procs.push(b);
      const bBase = await b.standby;

      // The standby: alive, not ready, refuses work with a clear code.
      expect((await fetch(`${bBase}/healthz`)).status).toBe(204);
      const notReady = await fetch(`${bBase}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ code: 'standby', message: expect.stringContaining('standby') });
      const refused = await create(bBase, 'on-standby');
      expect(refused.status).toBe(503);
      await refused.text();

      // Create load on the active one; SIGKILL it once 300 creates are acknowledged.
      const acked = new Map<string, string>();
      const unknown = new Set<string>();
      let killedAt = 0;
      let killing: Promise<void> | undefined;
      const worker = async (w: number) => {
        for (let i = 0; !killedAt; i++) {
          const mop = `fo-${w}-${i}`;
          try {
            const res = await create(aBase, mop);
            const body = (await res.json()) as { operation_id?: string };
            if (res.status === 200 && body.operation_id) acked.set(mop, body.operation_id);
            else unknown.add(mop);
          } catch {
            unknown.add(mop);
          }
          if (acked.size >= 300 && !killing) {
            killedAt = Date.now();
            killing = kill(a.child);
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
      await killing;

      // The standby takes over on its own port.
      let ready = 0;
      while (ready === 0) {
        const r = await fetch(`${bBase}/readyz`).catch(() => undefined);
        await r?.text();
        if (r?.status === 204) ready = Date.now();
        else expect(Date.now() - killedAt, `not ready after 5 s: ${b.stderr()}`).toBeLessThan(5000);
        if (!ready) await new Promise((res) => setTimeout(res, 25));
      }
      const failoverMs = ready - killedAt;
      process.stderr.write(
        `failover: ${failoverMs} ms (${acked.size} creates acknowledged, ${unknown.size} in flight at the kill)\n`,
      );
      expect(failoverMs).toBeLessThan(5000);
      expect((await b.active).base_url).toBe(bBase);

      // Every acknowledged create is there: a retry with the same merchant_operation_id gets the same operation.
      for (const [mop, id] of acked) {
        const res = await create(bBase, mop);
        expect(res.status, mop).toBe(200);
        expect(((await res.json()) as { operation_id: string }).operation_id, mop).toBe(id);
      }
      // One in flight at the kill either happened or not; retried, it is created once.
      for (const mop of unknown) {
        const first = (await (await create(bBase, mop)).json()) as { operation_id: string };
        const again = (await (await create(bBase, mop)).json()) as { operation_id: string };
        expect(again.operation_id).toBe(first.operation_id);
      }

      // Timers resume on the new active one: the payments expire, deliveries due are made.
      const adv = await fetch(`${bBase}/sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN },
        body: JSON.stringify({ by: '31m' }),
      });
      expect(adv.status).toBe(200);
      const ops = new Set(acked.values());
      const seen = new Map<string, Set<string>>(); // event (type + operation + status) → webhook-ids
      const expired = new Set<string>();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<undefined>((res) => (timer = setTimeout(() => res(undefined), 60_000)));
      while (expired.size < ops.size) {
        const r = await Promise.race([rx.next(), deadline]);
        if (!r) throw new Error(`only ${expired.size} of ${ops.size} operations' expiry were delivered`);
        const ev = JSON.parse(r.body) as {
          type: string;
          data: { operation: { operation_id: string; status: string } };
        };
        const op = ev.data.operation;
        const key = `${ev.type} ${op.operation_id} ${op.status}`;
        if (!seen.has(key)) seen.set(key, new Set());
        seen.get(key)!.add(String(r.headers['webhook-id']));
        if (op.status !== 'pending' && ops.has(op.operation_id)) expired.add(op.operation_id);
      }
      clearTimeout(timer);
      process.stderr.write(`webhooks: ${rx.received.length} deliveries of ${seen.size} events\n`);
      for (const [key, ids] of seen) expect(ids.size, `${key} delivered under ${[...ids].join(', ')}`).toBe(1);
    } finally {
      for (const p of procs) await kill(p.child);
      await rx.close();
    }
  }, 120_000);

  it('the active process whose database session is lost stops serving; the standby takes over, and it stands by', async () => {
    const url = await cluster.get().createDatabase();
    const rx = await startReceiver();
    const a = start(url, rx.url);
    const procs = [a];
    try {
      const aBase = (await a.active).base_url;
      const b = start(url, rx.url);
      procs.push(b);
      const bBase = await b.standby;
      // The standby's own session drops first: it reconnects and goes on standing by.
      expect(await killWriterSessions(url, 'standby')).toBe(1);
      await new Promise<void>((r) => {
        const check = () => /reconnecting/.test(b.stderr()) && r();
        check();
        b.child.stderr!.on('data', check);
      });
      expect(await killLeaseHolder(url)).toBe(1);
      expect((await b.active).base_url).toBe(bBase);
      expect((await fetch(`${bBase}/readyz`)).status).toBe(204);
      // The one that lost its session (it tries the database again after a second) finds the lease taken: it stands
      // by on its own port, as a second process started now would (it once exited 5).
      await new Promise<void>((r) => {
        const check = () => /standing by on/.test(a.stderr()) && r();
        check();
        a.child.stderr!.on('data', check);
      });
      expect(a.stderr()).toMatch(/database session was lost.*503 store_unavailable until the database is back/);
      const standby = await fetch(`${aBase}/readyz`);
      expect(standby.status).toBe(503);
      expect(await standby.json()).toMatchObject({ code: 'standby', message: expect.stringContaining('standby') });
    } finally {
      for (const p of procs) await kill(p.child);
      await rx.close();
    }
  }, 60_000);

  it('a second process with --reset is refused while another holds the lease, and the data stays', async () => {
    const url = await cluster.get().createDatabase();
    const rx = await startReceiver();
    const a = start(url, rx.url);
    try {
      const base = (await a.active).base_url;
      const made = (await (await create(base, 'kept')).json()) as { operation_id: string };
      const b = start(url, rx.url, ['--reset']);
      const code = await new Promise<number | null>((r) => b.child.once('exit', (c) => r(c)));
      expect(code).toBe(5);
      expect(b.stderr()).toMatch(/holds its active lease, and --reset would delete its data/);
      expect(((await (await create(base, 'kept')).json()) as { operation_id: string }).operation_id).toBe(
        made.operation_id,
      );
    } finally {
      await kill(a.child);
      await rx.close();
    }
  }, 60_000);
});
