// The webhook delivery worker thread (started by WorkerAttemptRunner in worker.ts): takes every job it is sent, runs
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
const plain = new Agent({ keepAliveTimeout: 1000, connections: data.connections, connect });
const pipelined = new Agent({ keepAliveTimeout: 1000, connections: data.pipelinedConnections, pipelining: data.pipelining, connect });
const deliverer = makeDeliverer(
  {
    plain: { dispatcher: plain, perOrigin: data.connections },
    pipelined: { dispatcher: pipelined, perOrigin: data.pipelinedConnections * data.pipelining },
  },
  report,
);
port.on('message', (m: DeliveryWorkerMessage) => {
  if ('abort' in m) return deliverer.abortAll(m.abort);
  // undici writes a request on a reused connection in a setImmediate (it first reads what the idle socket may hold):
  // corked until the one after, every request of this message on a connection leaves in one write.
  const corked = [...sockets];
  for (const s of corked) s.cork();
  try {
    for (const job of m.jobs) deliverer.submit(job);
  } finally {
    setImmediate(() => {
      for (const s of corked) s.uncork();
    });
  }
});
