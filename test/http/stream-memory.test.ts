// "RSS returns within 10 % of its start once they close". An event's bytes were cached beside
// the object they were made from (a WeakMap keyed by the request log's entry), so every entry a logs stream had been
// sent kept its encoded copy for as long as the ring kept the entry, after every stream had closed. The bytes are
// now shared only among the streams one change is sent to, in the same turn. Checked with a forced collection
// (v8 --expose-gc at run time) and a WeakRef to the bytes a stream was sent.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { eventStream, type EventSink } from '../../src/emulator/http/sse.js';
import { StreamGate } from '../../src/emulator/http/stream-gate.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Send `entry` to two streams, read it from both, close them; WeakRefs to the bytes each one read. */
async function sendToTwoStreams(gate: StreamGate, entry: { id: string }): Promise<WeakRef<Uint8Array>[]> {
  const sinks: EventSink[] = [];
  const streams = [0, 1].map(() =>
    eventStream(gate, 'admin', undefined, (sink) => {
      sinks.push(sink);
      return () => undefined;
    }),
  );
  for (const sink of sinks) sink.send('request', entry, entry.id);
  const refs: WeakRef<Uint8Array>[] = [];
  for (const stream of streams) {
    const reader = stream.body!.getReader();
    await reader.read(); // the opening comment
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('event: request');
    refs.push(new WeakRef(value!));
    await reader.cancel();
  }
  // Both streams got the same bytes: encoded once.
  expect(refs[0]!.deref()).toBe(refs[1]!.deref());
  return refs;
}

describe("a closed stream's event bytes", () => {
  it('are not kept beside an entry that outlives the stream (the request log keeps its entries)', async () => {
    const gate = new StreamGate();
    // An entry of the request log's ring: it lives on after the stream.
    const entry = { id: 'req_1', method: 'GET', path: '/v1/balances', status: 200, body: 'x'.repeat(4096) };
    const refs = await sendToTwoStreams(gate, entry);
    expect(gate.size()).toBe(0);
    // WeakRef targets stay alive until the end of the job that made them: collect in a later one.
    await new Promise((r) => setImmediate(r));
    gc();
    expect(refs[0]!.deref()).toBeUndefined();
    expect(entry.id).toBe('req_1'); // the entry itself is still alive
  });

  it('of one interval are joined once for every stream that was sent them (one chunk, not a copy per stream)', async () => {
    const gate = new StreamGate();
    const sinks: EventSink[] = [];
    const streams = [0, 1, 2].map(() =>
      eventStream(gate, 'admin', undefined, (sink) => {
        sinks.push(sink);
        return () => undefined;
      }),
    );
    const readers = streams.map((s) => s.body!.getReader());
    for (const reader of readers) await reader.read(); // the opening comment
    const entries = [1, 2, 3].map((n) => ({ id: `req_${n}`, body: 'x'.repeat(1024) }));
    for (const entry of entries) for (const sink of sinks) sink.send('request', entry, entry.id);
    // The three events of the interval go out together, one chunk per stream: the same chunk for all three.
    const chunks = await Promise.all(readers.map(async (r) => (await r.read()).value!));
    expect(new TextDecoder().decode(chunks[0]).match(/event: request/g)).toHaveLength(3);
    expect(chunks[1]).toBe(chunks[0]);
    expect(chunks[2]).toBe(chunks[0]);
    // A stream sent other events in the interval gets its own chunk.
    sinks[2]!.send('request', { id: 'req_4' }, 'req_4');
    for (const entry of entries.slice(0, 2)) for (const sink of sinks) sink.send('request', entry, entry.id);
    const next = await Promise.all(readers.map(async (r) => (await r.read()).value!));
    expect(next[1]).toBe(next[0]);
    expect(next[2]).not.toBe(next[0]);
    expect(new TextDecoder().decode(next[2])).toContain('id: req_4');
    for (const reader of readers) await reader.cancel();
    expect(gate.size()).toBe(0);
  });
});
