// The client's server-sent event streams (`operations.stream`, `logs.stream`): one request sent with undici, its
// events parsed as they arrive and yielded with their JSON data, until the server ends the stream or the caller's
// signal aborts it (then the stream simply ends). No timeout and no retry: a stream is open-ended.
import type { Dispatcher } from 'undici';
import { describeCause, flattenHeaders, parseLoose } from './core-helpers.js';
import { APIConnectionError, APIError } from './errors.js';
import type { HttpMethod } from '../contract/endpoint-row.js';

export interface StreamRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  /** `METHOD /path`, for messages. */
  label: string;
  baseUrl: string;
  signal: AbortSignal | undefined;
  dispatcher: Dispatcher | undefined;
}

export interface StreamEvent {
  event: string;
  data: unknown;
}

export async function* eventStream(req: StreamRequest): AsyncGenerator<StreamEvent> {
  const { label, signal, dispatcher } = req;
  const [{ request }, { createParser }] = await Promise.all([import('undici'), import('eventsource-parser')]);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, {
      method: req.method,
      headers: { ...req.headers, accept: 'text/event-stream' },
      ...(signal ? { signal } : {}),
      ...(dispatcher ? { dispatcher } : {}),
    });
  } catch (err) {
    if (signal?.aborted) return;
    throw new APIConnectionError(`${label} failed to connect to ${req.baseUrl}: ${describeCause(err)}`, {
      cause: err,
    });
  }
  if (res.statusCode >= 300) {
    const text = await res.body.text();
    throw APIError.from({
      status: res.statusCode,
      endpoint: label,
      headers: flattenHeaders(res.headers),
      body: parseLoose(text),
    });
  }
  const queue: StreamEvent[] = [];
  const parser = createParser({
    onEvent: (ev) => queue.push({ event: ev.event ?? 'message', data: JSON.parse(ev.data) }),
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body) {
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      while (queue.length > 0) yield queue.shift()!;
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw new APIConnectionError(`${label}: the stream from ${req.baseUrl} broke: ${describeCause(err)}`, {
      cause: err,
    });
  } finally {
    if (!res.body.destroyed) res.body.destroy();
  }
}
