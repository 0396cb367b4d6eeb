// Cluster processes for the tests: `paygate sandbox start --cluster` (from dist/) on one throwaway database, each
// started on port 0 with its JSON startup line read, killed (SIGKILL), paused (SIGSTOP/SIGCONT) or stopped by its
// pid; every one still running is killed when the test ends (`stopAll`).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect } from 'vitest';
import { KEY_A } from '../helpers/harness.js';

const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
export const ADMIN = 'pg_admin_cluster_test';

export interface Info {
  base_url: string;
  listen_url: string;
  node: string;
  address: string;
}

export interface Proc {
  child: ChildProcess;
  info: Info;
  base: string;
  stderr(): string;
}

const running = new Set<ChildProcess>();

export async function startProc(store: string, extra: string[] = []): Promise<Proc> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--cluster', '--store', store, '--port', '0', '--json', '--frozen-clock', ...extra],
    { env: { ...process.env, PAYGATE_ADMIN_TOKEN: ADMIN, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, sig) => reject(new Error(`cluster process exited (${code ?? sig}): ${err}`))),
  );
  exited.catch(() => {});
  const line = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
    exited,
  ]);
  const info = JSON.parse(line) as Info;
  return { child, info, base: info.listen_url, stderr: () => err };
}

export function kill(p: Proc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const { child } = p;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill(signal);
  return gone;
}

export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      return gone;
    }),
  );
}

/** The base URL of workspace `ws` on process `base`. */
export const wsBase = (base: string, ws: string) => (ws === 'default' ? base : `${base}/w/${ws}`);

export async function create(
  base: string,
  ws: string,
  mop: string,
): Promise<{ status: number; body: { operation_id?: string; code?: string } }> {
  const res = await fetch(`${wsBase(base, ws)}/v1/payment`, {
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
  return { status: res.status, body: (await res.json()) as { operation_id?: string; code?: string } };
}

/** `create`, retried while the cluster answers 503 (a workspace moving, a process that cannot renew in time). */
export async function createOk(base: string, ws: string, mop: string): Promise<string> {
  return until(`create ${mop} in ${ws}`, async () => {
    const r = await create(base, ws, mop);
    if (r.status === 503) return undefined;
    if (r.status !== 200) throw new Error(`create ${mop}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.operation_id;
  });
}

/** Status of the operation `mop` of shop A in `ws`, through `base`. */
export async function find(base: string, ws: string, mop: string): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${wsBase(base, ws)}/v1/get_operation_state`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
    body: JSON.stringify({ merchant_operation_id: mop }),
  });
  const body = (await res.json()) as { operation_id?: string };
  return { status: res.status, ...(body.operation_id ? { id: body.operation_id } : {}) };
}

export async function clusterStatus(base: string): Promise<{
  node: string;
  nodes: {
    id: string;
    alive: boolean;
    address: string;
    workspaces: { id: string; epoch: number; lease_age_ms: number }[];
  }[];
  unowned: { id: string }[];
}> {
  const res = await fetch(`${base}/cluster/status`, { headers: { 'x-admin-token': ADMIN } });
  if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
  return (await res.json()) as never;
}

/** Who owns `ws` now, per the database (undefined: nobody live). */
export async function ownerOf(url: string, ws: string): Promise<{ owner: string | null; epoch: number } | undefined> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ owner: string | null; epoch: string }>(
      'SELECT owner, epoch FROM paygate_lease WHERE workspace = $1 AND expires_at > now()',
      [ws],
    );
    return rows[0] ? { owner: rows[0].owner, epoch: Number(rows[0].epoch) } : undefined;
  } finally {
    await c.end();
  }
}

/** Run `sql` on the database at `url`. */
export async function sql<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** Poll `check` every 20 ms (real time: the processes are others) until it returns a value, or fail after `ms`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** No two processes wrote one workspace under the same lease epoch, and epochs only grow along each journal. */
export async function expectOneWriterPerEpoch(url: string): Promise<void> {
  const twice = await sql(
    url,
    'SELECT workspace, epoch FROM paygate_journal WHERE epoch IS NOT NULL GROUP BY workspace, epoch HAVING count(DISTINCT writer) > 1',
  );
  expect(twice).toEqual([]);
  const backwards = await sql(
    url,
    `SELECT workspace, seq FROM (SELECT workspace, seq, epoch, lag(epoch) OVER (PARTITION BY workspace ORDER BY seq) AS prev
       FROM paygate_journal) j WHERE epoch < prev`,
  );
  expect(backwards).toEqual([]);
}
