// A small closed-loop HTTP load generator on undici: N connections, each sending its next request as soon as
// the previous answer arrives. Reports throughput and latency percentiles.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

/** The fixture key of shop_a, the shop the benchmarks create payments in. */
export const KEY_A = 'pg_test_a_7Hq2Lm9XwR4tNc8V';

/** `request` for load(): the i-th POST /v1/payment, merchant id `<prefix>-<i>`, 1,000 clients, amounts 100.00–9,099.00. */
export const createPayment =
  (prefix, key = KEY_A) =>
  (i) => ({
    method: 'POST',
    path: '/v1/payment',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      merchant_operation_id: `${prefix}-${i}`,
      client_id: `client-${i % 1000}`,
      method: 'WT_RUB_C2C',
      amount: `${100 + (i % 9000)}.00`,
      currency: 'RUB',
    }),
  });

/**
 * @param {object} o
 * @param {string} o.url base URL
 * @param {number} o.connections concurrent connections (default 20)
 * @param {number} o.durationMs measured duration (default 5000)
 * @param {number} o.warmupMs warm-up before measuring (default 1000)
 * @param {(i: number) => {method: string, path: string, headers?: object, body?: string}} o.request
 * @param {number} [o.pid] the server's process id: its CPU time over the measured window is reported per request
 *   (`cpuUsPerRequest`, from /proc/<pid>/stat; undefined where there is no /proc)
 * @param {(measuring: boolean) => void} [o.onMeasure] called as the measured window opens (true) and closes (false)
 * @param {() => boolean} [o.until] stop measuring early once true
 * @param {boolean} [o.record] also return `samples`: each measured request as [start in ms since the epoch, latency ms]
 */
export async function load({
  url,
  connections = 20,
  durationMs = 5000,
  warmupMs = 1000,
  request,
  pid,
  onMeasure,
  until = () => false,
  record = false,
}) {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  let seq = 0;
  let measuring = false;
  let stop = false;
  const lat = [];
  const samples = [];
  let errors = 0;
  let non2xx = 0;
  const worker = async () => {
    while (!stop) {
      const req = request(seq++);
      const t0 = process.hrtime.bigint();
      try {
        const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
        await res.body.dump();
        if (res.statusCode >= 300) non2xx++;
      } catch {
        errors++;
      }
      if (measuring) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        lat.push(ms);
        if (record) samples.push([performance.timeOrigin + performance.now() - ms, ms]);
      }
    }
  };
  const workers = Array.from({ length: connections }, worker);
  await new Promise((r) => setTimeout(r, warmupMs));
  const cpu0 = cpuTicks(pid);
  onMeasure?.(true);
  measuring = true;
  const t0 = performance.now();
  // `until`: stop early once it returns true (polled every 20 ms).
  while (performance.now() - t0 < durationMs && !until())
    await new Promise((r) => setTimeout(r, Math.min(20, durationMs)));
  measuring = false;
  const elapsed = performance.now() - t0;
  const count = lat.length;
  onMeasure?.(false);
  const cpu1 = cpuTicks(pid);
  stop = true;
  await Promise.all(workers);
  await pool.close();
  lat.sort((a, b) => a - b);
  const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN;
  const cpuUsPerRequest =
    cpu0 !== undefined && cpu1 !== undefined && count > 0 ? ((cpu1 - cpu0) * TICK_US) / count : undefined;
  return {
    requests: count,
    rps: count / (elapsed / 1000),
    p50: pct(50),
    p99: pct(99),
    errors,
    non2xx,
    cpuUsPerRequest,
    ...(record ? { samples } : {}),
  };
}

/** Linux clock ticks are 1/100 s (USER_HZ). */
const TICK_US = 10_000;

/** User + system CPU ticks of process `pid` so far (fields 14 and 15 of /proc/<pid>/stat), or undefined. */
export function cpuTicks(pid) {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}
