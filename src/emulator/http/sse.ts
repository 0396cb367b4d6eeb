// A server-sent events response (text/event-stream): `open` starts feeding it and returns its cleanup, which runs
// when the client goes away, the feed ends it, or the sandbox closes the connection. A comment line every 15 s keeps
// proxies from timing the stream out.

export interface EventSink {
  send(event: string, data: unknown): void;
  /** End the stream (the watched operation reached a terminal status). */
  end(): void;
}

const HEARTBEAT_MS = 15_000;

export function eventStream(open: (sink: EventSink) => () => void): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    cleanup?.();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const sink: EventSink = {
        send(event, data) {
          if (!closed) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        },
        end() {
          if (closed) return;
          stop();
          controller.close();
        },
      };
      controller.enqueue(encoder.encode(': paygate stream\n\n'));
      heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
      }, HEARTBEAT_MS);
      heartbeat.unref();
      cleanup = open(sink);
      if (closed) cleanup();
    },
    cancel: stop,
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
}
