// Preloaded into a benchmark's sandbox (`node --require test/bench/probe.cjs …`, with PROBE_FILE set): on SIGUSR2
// it appends one JSON line to that file with
// - where the process's memory is: RSS (of which anonymous and of mapped files), the V8 heap (used and committed, per space), external memory and
//   ArrayBuffers (process.memoryUsage(), v8.getHeapSpaceStatistics()), the open handles; with --expose-gc and
//   PROBE_GC_FROM=n, from the n-th signal on (1 = the first) the same again after full collections (two, 1 s apart,
//   sampled 1 s after the second), so a benchmark
//   can tell memory the JavaScript heap still references from memory V8 or the allocator keeps;
// - the garbage collections since the previous signal (PerformanceObserver 'gc': count, total and longest pause, by
//   kind, and with PROBE_PAUSES=1 each pause's start and length) and the event loop's turns (a 2 ms interval timer: the longest gap and the process's CPU time in it, the
//   most CPU time in any gap, and the time in gaps over 20 ms), so
//   a benchmark can split a delay into garbage collection and everything else;
// - the store's group writes since the previous signal (the diagnostics channels of src/store/write-trace.ts):
//   transactions per group, the oldest one's wait to be sent, serializing, and write + fdatasync, as p50/p99/max.
'use strict';
const { appendFileSync, readFileSync } = require('node:fs');
const { PerformanceObserver, constants } = require('node:perf_hooks');
const v8 = require('node:v8');
const dc = require('node:diagnostics_channel');

const file = process.env.PROBE_FILE;
const gcFrom = Number(process.env.PROBE_GC_FROM ?? Infinity);
// Node's kinds of collection (perf_hooks.constants): 4 is a full (mark-compact) collection, 8 incremental marking.
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};
const MB = 1024 * 1024;

/** RssAnon and RssFile of /proc/self/status in MB (resident memory of the process's own vs of mapped files). */
function rssParts() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
    return { rss_anon_mb: kb('RssAnon'), rss_file_mb: kb('RssFile') };
  } catch {
    return {};
  }
}

function sample() {
  const m = process.memoryUsage();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name] = { used_mb: s.space_used_size / MB, committed_mb: s.physical_space_size / MB };
  }
  return {
    rss_mb: m.rss / MB,
    ...rssParts(),
    heap_used_mb: m.heapUsed / MB,
    heap_total_mb: m.heapTotal / MB,
    external_mb: m.external / MB,
    array_buffers_mb: m.arrayBuffers / MB,
    malloced_mb: v8.getHeapStatistics().malloced_memory / MB,
    spaces,
    handles: process.getActiveResourcesInfo().length,
  };
}

if (file) {
  let gcs = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      gcs.push({
        ms: e.duration,
        kind: KINDS[e.detail?.kind] ?? String(e.detail?.kind),
        at: performance.timeOrigin + e.startTime,
      });
  }).observe({ entryTypes: ['gc'] });
  let groups = [];
  let journal = [];
  dc.subscribe('paygate:store.group', (m) => groups.push(m));
  dc.subscribe('paygate:store.journal', (m) => journal.push(m));
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let longestTurn = 0;
  let longestTurnCpu = 0;
  let mostCpuInATurn = 0;
  let longTurnsMs = 0;
  let turnsOver5 = 0;
  // With PROBE_PAUSES=1, each turn over 5 ms as [start (ms since the epoch), length ms, CPU ms of the process in it].
  let longTurns = [];
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const gap = now - last - 2;
    // The process's CPU time over the gap (all its threads, the collector's helpers included): far below the gap,
    // the thread waited for a core; near it (or above), it worked.
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    last = now;
    lastCpu = cpu;
    if (gap > longestTurn) [longestTurn, longestTurnCpu] = [gap, cpuMs];
    if (cpuMs > mostCpuInATurn) mostCpuInATurn = cpuMs;
    if (gap > 20) longTurnsMs += gap;
    if (gap > 5) {
      turnsOver5++;
      if (longTurns.length < 1000) longTurns.push([performance.timeOrigin + now - gap, gap, cpuMs]);
    }
  }, 2).unref();
  let n = 0;
  process.on('SIGUSR2', () => {
    n++;
    const before = sample();
    const byKind = {};
    for (const g of gcs) {
      const k = (byKind[g.kind] ??= { count: 0, total_ms: 0, max_ms: 0 });
      k.count++;
      k.total_ms += g.ms;
      k.max_ms = Math.max(k.max_ms, g.ms);
      (k.pauses ??= []).push(g.ms);
    }
    // The median and 99th percentile pause of each kind.
    for (const k of Object.values(byKind)) {
      const xs = k.pauses.sort((a, b) => a - b);
      delete k.pauses;
      k.p50_ms = xs[Math.floor(xs.length / 2)];
      k.p99_ms = xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];
    }
    const gc = {
      count: gcs.length,
      total_ms: gcs.reduce((a, g) => a + g.ms, 0),
      max_ms: gcs.reduce((a, g) => Math.max(a, g.ms), 0),
      by_kind: byKind,
      // With PROBE_PAUSES=1, each pause as [start (ms since the epoch), duration ms, kind], the first 5,000: a
      // benchmark can tell which of its requests one of them delayed.
      ...(process.env.PROBE_PAUSES === '1'
        ? {
            pauses: gcs
              .slice(0, 5000)
              .map((g) => [Math.round(g.at * 1000) / 1000, Math.round(g.ms * 1000) / 1000, g.kind]),
          }
        : {}),
    };
    const loop = {
      longest_turn_ms: longestTurn,
      longest_turn_cpu_ms: longestTurnCpu,
      most_cpu_in_a_turn_ms: mostCpuInATurn,
      in_turns_over_20ms_ms: longTurnsMs,
      turns_over_5ms: turnsOver5,
      ...(process.env.PROBE_PAUSES === '1'
        ? {
            long_turns: longTurns.map((t) => t.map((x) => Math.round(x * 1000) / 1000)),
            // The same instant on the wall clock and on the monotonic clock a CPU profile's timestamps use (µs).
            clock: [performance.timeOrigin + performance.now(), Number(process.hrtime.bigint() / 1000n)],
          }
        : {}),
    };
    const writes = groups.length > 0 ? groupSummary(groups, journal) : undefined;
    gcs = [];
    groups = [];
    journal = [];
    longestTurn = longestTurnCpu = mostCpuInATurn = 0;
    longTurnsMs = 0;
    turnsOver5 = 0;
    longTurns = [];
    const write = (afterGc) =>
      appendFileSync(
        file,
        `${JSON.stringify({ n, at: Date.now(), memory: before, gc, loop, groups: writes, after_gc: afterGc })}\n`,
      );
    if (n < gcFrom || typeof globalThis.gc !== 'function') return write(undefined);
    // Two full collections a second apart: ArrayBuffers' memory is freed by a sweeper after the collection.
    globalThis.gc();
    setTimeout(() => {
      globalThis.gc();
      setTimeout(() => write(sample()), 1000);
    }, 1000);
  });
}

/** p50, p99 and max of `key` over `list`, under `<prefix>_p50` etc. (ms values to 0.01). */
function spread(list, key, prefix, unit = '') {
  const xs = list.map((x) => x[key]).sort((a, b) => a - b);
  const at = (p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  const round = (x) => (unit ? Math.round(x * 100) / 100 : x);
  return {
    [`${prefix}_p50${unit}`]: round(at(0.5)),
    [`${prefix}_p99${unit}`]: round(at(0.99)),
    [`${prefix}_max${unit}`]: round(xs.at(-1)),
  };
}

function groupSummary(groups, journal) {
  return {
    count: groups.length,
    failed: groups.filter((g) => g.failed).length,
    ...spread(groups, 'transactions', 'transactions'),
    ...spread(groups, 'waited_ms', 'waited', '_ms'),
    ...spread(groups, 'encode_ms', 'encode', '_ms'),
    ...spread(groups, 'written_ms', 'written', '_ms'),
    ...(journal.length > 0
      ? {
          ...spread(journal, 'bytes', 'bytes'),
          ...spread(journal, 'write_ms', 'write', '_ms'),
          ...spread(journal, 'sync_ms', 'sync', '_ms'),
          fsync: journal[0].fsync,
        }
      : {}),
  };
}
