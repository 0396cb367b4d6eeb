// GET /pay/:id/events: the page's live view, as server-sent events scoped to that one operation, with the page's
// own credential rules (a flexible link's needs its k; 404 otherwise). Fed by the service's write listeners, never
// by polling the store: `state` carries the card of the page whenever what it shows changed (the operation moved,
// the link expired or became a payment, the pool's availability changed under a picker), rendered by the same code
// as the page itself; `clock` carries the sandbox time whenever it moved, so countdowns follow an advanced clock.
// The stream ends once the page reaches a state that never changes again.
import type { H3Event } from 'h3';
import type { StoreChange } from '../../store/state.js';
import type { AppContext, RouteContext } from '../context.js';
import { ApiError, errorResponse } from '../http/errors.js';
import { eventStream, nodeResponseOf, type EventSink } from '../http/sse.js';
import { findTarget, pageRequest, type PageRequest, type PageTarget } from './access.js';
import { notFoundPage } from './hosted-page.js';
import { renderCard } from './layout.js';

/** Whether a written transaction may change what the page of `id` shows. */
function concerns(changes: readonly StoreChange[], id: string, picker: boolean): boolean {
  for (const ch of changes) {
    if (ch.kind === 'link' && ch.link.id === id) return true;
    if (ch.kind === 'operation' && (ch.op.id === id || picker)) return true;
  }
  return false;
}

const clockMoved = (changes: readonly StoreChange[]) =>
  changes.some((ch) => ch.kind === 'meta' && ch.meta.id === 'clock');

/** The page's target now, for a request whose credential was already checked. */
function current(ctx: AppContext, req: PageRequest): PageTarget | undefined {
  const op = ctx.service.state.operation(req.id);
  if (op) return op.status === 'admitting' || op.type !== 'payment' ? undefined : { kind: 'payment', op };
  const link = ctx.service.state.link(req.id);
  return link ? { kind: 'link', link } : undefined;
}

export function pageEvents(event: H3Event, ctx: RouteContext): Response | string {
  const req = pageRequest(event, ctx);
  if (!findTarget(event, ctx, req)) return notFoundPage(event, req);
  try {
    // A page's streams count under the page (its tabs and reconnects), and among the server's.
    return eventStream(ctx.streams, `page:${req.id}`, nodeResponseOf(event), (sink) => feed(ctx, req, sink));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    event.context.errorCode = e.code;
    return errorResponse(e);
  }
}

/** Feed the page's stream from the service's writes; returns the cleanup. */
function feed(ctx: RouteContext, req: PageRequest, sink: EventSink): () => void {
  const { service } = ctx;
  let last = '';
  let picker = false;
  const push = () => {
    const target = current(ctx, req);
    if (!target) return sink.end();
    const card = renderCard(target, ctx, req);
    picker = card.state === 'choose';
    if (card.version !== last) {
      last = card.version;
      sink.send('state', { ...card, now: service.clock.now() });
    }
    if (card.final) sink.end();
  };
  const listener = (changes: readonly StoreChange[]) => {
    if (clockMoved(changes)) sink.send('clock', { now: service.clock.now() });
    if (concerns(changes, req.id, picker) || clockMoved(changes)) push();
  };
  sink.send('clock', { now: service.clock.now() });
  push();
  service.writeListeners.add(listener);
  return () => service.writeListeners.delete(listener);
}
