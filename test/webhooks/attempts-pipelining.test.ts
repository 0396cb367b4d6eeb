// The delivery worker's sends (attempts.ts): an origin's attempts go one per connection until it has answered
// PROBATION times cleanly, then pipelined; a receiver that closes its connections or lets an attempt time out goes
// back to one per connection, so it never gets a pipelined request re-sent to it (each event arrives once).
import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  makeDeliverer,
  PROBATION,
  type AttemptJob,
  type AttemptOutcome,
} from '../../src/emulator/webhook-outbox/attempts.js';
import { useCleanup } from '../helpers/cleanup.js';
import { startReceiver, type Receiver } from './receiver.js';

const defer = useCleanup();
const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;

/** An Agent that counts what it is handed. */
function counted(opts: Agent.Options): { agent: Agent; dispatched: () => number } {
  const agent = new Agent(opts);
  let n = 0;
  const dispatch = agent.dispatch.bind(agent);
  agent.dispatch = (o: Dispatcher.DispatchOptions, h: Dispatcher.DispatchHandler) => {
    n++;
    return dispatch(o, h);
  };
  defer(() => agent.close());
  return { agent, dispatched: () => n };
}

async function setup(answer: Receiver['answer']) {
  const rx = await startReceiver(answer);
  defer(() => rx.close());
  const plain = counted({ connections: 4 });
  const pipelined = counted({ connections: 2, pipelining: 8 });
  const outcomes: AttemptOutcome[] = [];
  // send() waits for its outcomes as they are reported (no polling on a timer).
  let waiting: { count: number; resolve: () => void } | undefined;
  const d = makeDeliverer(
    { plain: { dispatcher: plain.agent, perOrigin: 4 }, pipelined: { dispatcher: pipelined.agent, perOrigin: 16 } },
    (o) => {
      outcomes.push(o);
      if (waiting && outcomes.length >= waiting.count) waiting.resolve();
    },
  );
  let seq = 0;
  const send = async (n: number, timeout_ms = 5000) => {
    const target = outcomes.length + n;
    for (let i = 0; i < n; i++) {
      const s = ++seq;
      const job: AttemptJob = {
        seq: s,
        url: `${rx.url}`,
        webhook_id: `evt_${s}`,
        timestamp: 1_700_000_000,
        body: `{"n":${s}}`,
        secrets: [SECRET],
        timeout_ms,
      };
      d.submit(job);
    }
    if (outcomes.length < target) await new Promise<void>((resolve) => (waiting = { count: target, resolve }));
    waiting = undefined;
    expect(outcomes).toHaveLength(target);
  };
  return { rx, plain, pipelined, outcomes, send };
}

describe('webhook sends: one per connection, then pipelined', () => {
  it('a receiver that keeps its connections gets one per connection for PROBATION answers, then pipelined; each event once', async () => {
    const { rx, plain, pipelined, outcomes, send } = await setup(() => ({ status: 204 }));
    await send(PROBATION);
    expect(pipelined.dispatched()).toBe(0);
    await send(100);
    expect(plain.dispatched()).toBe(PROBATION);
    expect(pipelined.dispatched()).toBe(100);
    expect(outcomes.every((o) => o.status_code === 204)).toBe(true);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(rx.received.length);
    expect(rx.received).toHaveLength(PROBATION + 100);
  });

  it('a receiver that answers Connection: close is never pipelined and gets every event exactly once', async () => {
    const { rx, pipelined, outcomes, send } = await setup(() => ({ status: 200, headers: { connection: 'close' } }));
    await send(3 * PROBATION);
    expect(pipelined.dispatched()).toBe(0);
    expect(rx.received).toHaveLength(3 * PROBATION);
    expect(outcomes.filter((o) => o.error)).toEqual([]);
  });

  it('a timeout sends a pipelined origin back to one request per connection', async () => {
    const { pipelined, outcomes, send } = await setup((_r, n) => (n === PROBATION + 5 ? 'hang' : { status: 200 }));
    await send(PROBATION);
    await send(10, 200);
    const before = pipelined.dispatched();
    expect(before).toBe(10);
    expect(outcomes.filter((o) => o.error).map((o) => o.error)).toContainEqual('timed out after 200 ms');
    await send(20);
    expect(pipelined.dispatched()).toBe(before);
  });
});
