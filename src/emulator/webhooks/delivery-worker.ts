// The webhook delivery worker thread (started by WorkerAttemptRunner in worker.ts): takes every job it is sent, runs
// the attempts over its own undici Agent, posts the outcomes back in batches.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent } from 'undici';
import { makeDeliverer, type AttemptJob, type AttemptOutcome } from './attempts.js';

export interface DeliveryWorkerData {
  /** Connections per origin (and attempts on the wire per origin). */
  connections: number;
  /** Outcomes are posted back at most this often (ms). */
  batchMs: number;
  /** This thread's nice value (Linux); 0 leaves it. */
  nice: number;
}

export type DeliveryWorkerMessage = { jobs: AttemptJob[] } | { abort: string };

const data = workerData as DeliveryWorkerData;
const port = parentPort!;

if (data.nice) {
  // Linux: this thread only (its id is the one /proc/thread-self names). Elsewhere: normal priority.
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) setPriority(tid, data.nice);
  } catch {
    // not Linux, or not allowed: normal priority
  }
}

let done: AttemptOutcome[] = [];
const flush = (): void => {
  const batch = done;
  done = [];
  port.postMessage(batch);
};
const report = (outcome: AttemptOutcome): void => {
  if (done.push(outcome) === 1) setTimeout(flush, data.batchMs);
};
const agent = new Agent({ keepAliveTimeout: 1000, connections: data.connections });
const deliverer = makeDeliverer(agent, data.connections, report);
port.on('message', (m: DeliveryWorkerMessage) => {
  if ('abort' in m) deliverer.abortAll(m.abort);
  else for (const job of m.jobs) deliverer.submit(job);
});
