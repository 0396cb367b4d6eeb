// The webhook delivery worker thread (started by WorkerAttemptRunner in attempt-runner.ts): takes every job it is sent, runs
// the attempts over its own undici Agent, posts the outcomes back in batches. The attempts of one message are
// written with the Agent's sockets corked: the requests pipelined on one connection leave in one write (one
// syscall), each still its own HTTP request.
import { readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, buildConnector } from 'undici';
import { makeDeliverer, type AttemptJob, type AttemptOutcome } from './attempts.js';

export interface DeliveryWorkerData {
  /** Connections per origin, one request on the wire each (origins that closed a connection or failed an attempt). */
  connections: number;
  /** Connections per origin of the pipelined Agent (origins that behave). */
  pipelinedConnections: number;
  /** Requests on the wire per pipelined connection. */
  pipelining: number;
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
/** The Agent's open sockets (undici's own connector, watched). */
const sockets = new Set<Socket>();
const connector = buildConnector({});
const connect: buildConnector.connector = (opts, cb) =>
  connector(opts, (err, socket) => {
    if (socket) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    (cb as (e: Error | null, s: Socket | null) => void)(err, socket);
  });
// No undici timers per request (headers, body): the attempt's own deadline (attempts.ts, one timer for all) bounds it.
const options = { keepAliveTimeout: 1000, headersTimeout: 0, bodyTimeout: 0, connect };
const plain = new Agent({ ...options, connections: data.connections });
const pipelined = new Agent({ ...options, connections: data.pipelinedConnections, pipelining: data.pipelining });
/**
 * Run `fn` (which dispatches attempts) with every socket corked until the turn after: undici writes a request on a
 * reused connection in a setImmediate (it first reads what the idle socket may hold), so the requests `fn` starts on
 * one connection leave in one write.
 */
function batch(fn: () => void): void {
  const corked = [...sockets];
  for (const s of corked) s.cork();
  try {
    fn();
  } finally {
    setImmediate(() => {
      for (const s of corked) s.uncork();
    });
  }
}
const deliverer = makeDeliverer(
  {
    plain: { dispatcher: plain, perOrigin: data.connections },
    pipelined: { dispatcher: pipelined, perOrigin: data.pipelinedConnections * data.pipelining },
    batch,
  },
  report,
);
port.on('message', (m: DeliveryWorkerMessage) => {
  if ('abort' in m) deliverer.abortAll(m.abort);
  else batch(() => m.jobs.forEach((job) => deliverer.submit(job)));
});
