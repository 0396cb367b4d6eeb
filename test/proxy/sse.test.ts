// The proxy's event streams are bounded as the sandbox's are (src/proxy/sse.ts): a client that lets too much wait in
// its socket is dropped and its feed's listener removed; every place taken is given back, however the stream ends.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PROXY_STREAM_LIMITS, ProxyStreamGate, serveEventStream, type EventSink } from '../../src/proxy/sse.js';

/** A response whose client reads nothing: every write after the opening waits. */
class StuckResponse extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  ended = false;
  status = 0;
  writeHead(status: number): this {
    this.status = status;
    return this;
  }
  write(chunk: string): boolean {
    this.writableLength += Buffer.byteLength(chunk);
    return false;
  }
  end(): this {
    this.ended = true;
    this.emit('close');
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    this.emit('close');
    return this;
  }
}

function open(gate: ProxyStreamGate): { res: StuckResponse; sink: EventSink; cleaned: () => number } {
  const res = new StuckResponse();
  let sink!: EventSink;
  let cleaned = 0;
  serveEventStream(gate, 'admin', res as unknown as ServerResponse, (s) => {
    sink = s;
    return () => cleaned++;
  });
  return { res, sink, cleaned: () => cleaned };
}

describe('the proxy’s bounded event streams', () => {
  it('drops a client that lets more than the bound wait, removes its listener once and gives its place back', () => {
    const gate = new ProxyStreamGate({ ...PROXY_STREAM_LIMITS, maxBufferedBytes: 1024 });
    const { res, sink, cleaned } = open(gate);
    expect(res.status).toBe(200);
    expect(gate.size()).toBe(1);
    for (let i = 0; i < 100 && !res.destroyed; i++) sink.send('request', { id: `r${i}`, pad: 'x'.repeat(100) });
    expect(res.destroyed).toBe(true);
    expect(gate.dropped).toBe(1);
    expect(cleaned()).toBe(1);
    expect(gate.size()).toBe(0);
  });

  it('counts events waiting too: past maxBufferedEvents the client is dropped', () => {
    const gate = new ProxyStreamGate({ ...PROXY_STREAM_LIMITS, maxBufferedEvents: 3 });
    const { res, sink } = open(gate);
    for (let i = 0; i < 3; i++) sink.send('request', { i });
    expect(res.destroyed).toBe(false);
    sink.send('request', { i: 3 });
    expect(res.destroyed).toBe(true);
  });

  it('a feed that ends (the watched operation is terminal) closes the stream and frees its place', () => {
    const gate = new ProxyStreamGate();
    const { res, sink, cleaned } = open(gate);
    sink.end();
    expect(res.ended).toBe(true);
    expect(cleaned()).toBe(1);
    expect(gate.size()).toBe(0);
  });

  it('past the total the answer is 503 streams_full', () => {
    const gate = new ProxyStreamGate({ ...PROXY_STREAM_LIMITS, total: 1 });
    const first = open(gate);
    const res = new StuckResponse();
    let body = '';
    res.end = function (this: StuckResponse, chunk?: string) {
      body = chunk ?? '';
      return this;
    } as never;
    serveEventStream(gate, 'other', res as unknown as ServerResponse, () => () => undefined);
    expect(res.status).toBe(503);
    expect(JSON.parse(body)).toMatchObject({ code: 'streams_full' });
    first.sink.end();
    expect(gate.size()).toBe(0);
  });
});
