// Preloaded into a benchmark's sandbox (`node --require test/bench/probe.cjs …`, with PROBE_FILE set): on SIGUSR2
// it appends one JSON line to that file with
// - where the process's memory is: RSS, the V8 heap (used and committed, per space), external memory and
//   ArrayBuffers (process.memoryUsage(), v8.getHeapSpaceStatistics()), the open handles; with --expose-gc and
//   PROBE_GC_FROM=n, from the n-th signal on (1 = the first) the same again after a full collection, so a benchmark
//   can tell memory the JavaScript heap still references from memory V8 or the allocator keeps;
// - the garbage collections since the previous signal (PerformanceObserver 'gc': count, total and longest pause, by
//   kind) and the event loop's turns (a 2 ms interval timer: the longest gap, and the time in gaps over 20 ms), so
//   a benchmark can split a delay into garbage collection and everything else.
'use strict';
const { appendFileSync } = require('node:fs');
const { PerformanceObserver } = require('node:perf_hooks');
const v8 = require('node:v8');

const file = process.env.PROBE_FILE;
const gcFrom = Number(process.env.PROBE_GC_FROM ?? Infinity);
const KINDS = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak', 16: 'minor' };
const MB = 1024 * 1024;

function sample() {
  const m = process.memoryUsage();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name] = { used_mb: s.space_used_size / MB, committed_mb: s.physical_space_size / MB };
  }
  return {
    rss_mb: m.rss / MB,
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
    for (const e of list.getEntries()) gcs.push({ ms: e.duration, kind: KINDS[e.detail?.kind] ?? String(e.detail?.kind) });
  }).observe({ entryTypes: ['gc'] });
  let last = performance.now();
  let longestTurn = 0;
  let longTurnsMs = 0;
  setInterval(() => {
    const now = performance.now();
    const gap = now - last - 2;
    last = now;
    if (gap > longestTurn) longestTurn = gap;
    if (gap > 20) longTurnsMs += gap;
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
    }
    const gc = { count: gcs.length, total_ms: gcs.reduce((a, g) => a + g.ms, 0), max_ms: gcs.reduce((a, g) => Math.max(a, g.ms), 0), by_kind: byKind };
    const loop = { longest_turn_ms: longestTurn, in_turns_over_20ms_ms: longTurnsMs };
    gcs = [];
    longestTurn = 0;
    longTurnsMs = 0;
    let afterGc;
    if (n >= gcFrom && typeof globalThis.gc === 'function') {
      globalThis.gc();
      afterGc = sample();
    }
    appendFileSync(file, `${JSON.stringify({ n, at: Date.now(), memory: before, gc, loop, after_gc: afterGc })}\n`);
  });
}
