// Where the CPU of a PostgreSQL bench run goes (postgres.mjs): over a measured window, the CPU time (user + system,
// from /proc/<pid>/stat) of the sandbox process, of the PostgreSQL server (the postmaster and every process it
// forked: the backends, the WAL writer, the checkpointer…), and of this process (the load generator), each per
// request. Undefined parts where there is no /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { cpuTicks } from './load.mjs';

/** Linux clock ticks are 1/100 s (USER_HZ). */
const TICK_US = 10_000;

/** CPU ticks of `postmaster` and every process whose parent it is. */
function serverTicks(postmaster) {
  if (postmaster === undefined) return undefined;
  let total = cpuTicks(postmaster);
  if (total === undefined) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[1]) === postmaster) total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

function selfUs() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * A meter for one window: `onMeasure` for load() (or bareInsert()), then `perRequest(count)`:
 * { sandbox, postgres, client } in µs per request (sandbox undefined without `sandboxPid`).
 */
export function cpuSplit({ sandboxPid, postmasterPid }) {
  let t0;
  let t1;
  const sample = () => ({ sandbox: cpuTicks(sandboxPid), postgres: serverTicks(postmasterPid), client: selfUs() });
  return {
    onMeasure(measuring) {
      if (measuring) t0 = sample();
      else t1 = sample();
    },
    perRequest(count) {
      const ticks = (k) =>
        t0?.[k] !== undefined && t1?.[k] !== undefined ? ((t1[k] - t0[k]) * TICK_US) / count : undefined;
      return { sandbox: ticks('sandbox'), postgres: ticks('postgres'), client: (t1.client - t0.client) / count };
    },
  };
}

/** "CPU per request: sandbox 120 µs, PostgreSQL 80 µs, load generator 40 µs (total 240 µs)". */
export function formatSplit(s, what = 'create') {
  const f = (v) => (v === undefined ? 'n/a' : `${v.toFixed(0)} µs`);
  const total = (s.sandbox ?? 0) + (s.postgres ?? 0) + s.client;
  const parts = [
    ...(s.sandbox === undefined ? [] : [`sandbox ${f(s.sandbox)}`]),
    `PostgreSQL ${f(s.postgres)}`,
    `load generator ${f(s.client)}`,
  ];
  return `      CPU per ${what}: ${parts.join(', ')}   (total ${total.toFixed(0)} µs)`;
}
