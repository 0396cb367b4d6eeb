// The webhooks of a recording (`paygate proxy --record` with `--forward-webhooks-to`): each verified event the proxy
// forwarded is put on the recorded step that makes its operation enter the status it announces (the create that
// answered it, the cancel or upload that answered it, the sandbox control inserted for a move between two exchanges),
// as `expect: { webhooks: [...] }`, since that is the step whose replay against a fresh sandbox sends it. What cannot
// be placed so that the replay sends exactly those events is left out and counted, with the reason.
import type { WebhookDelivery } from '../conformance/types.js';

type Step = Record<string, unknown>;

/** A recorded step that makes an operation enter a status (upstream operation id). */
export interface Move {
  operation: string;
  status: string;
  step: Step;
}

export interface WebhookAttribution {
  /** Distinct events verified and forwarded (each counted once, however often delivered). */
  events: number;
  attributed: number;
  /** Why the others were left out, and how many each time. */
  leftOut: Map<string, number>;
}

interface Event {
  id: string;
  type: string;
  operation: string;
  createdAt: string;
  arrival: number;
  move?: Move;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const LEFT_OUT = {
  invalid: 'their signature failed verification',
  unchecked: 'they were not verified (no --webhook-secret)',
  shape: 'not an operation event (`operation.<status>` with data.operation)',
  untouched: 'their operation was not touched by a recorded step',
  unreproduced: 'no recorded step makes the move they announce (nothing read it afterwards, or its steps are skipped)',
  incomplete:
    'their step also causes an earlier event of the same operation that could not be placed, so its list is unknown',
} as const;

/** The operation event a delivery carries, or undefined when it is not one. */
function eventOf(d: WebhookDelivery): Omit<Event, 'arrival'> | undefined {
  const b = d.body;
  if (!isObject(b) || typeof b.id !== 'string' || typeof b.type !== 'string') return undefined;
  const op = isObject(b.data) && isObject(b.data.operation) ? b.data.operation : undefined;
  if (typeof op?.operation_id !== 'string' || b.type !== `operation.${String(op.status)}`) return undefined;
  return { id: b.id, type: b.type, operation: op.operation_id, createdAt: String(b.created_at ?? '') };
}

/**
 * Writes `expect.webhooks` on the steps of `moves` that cause the verified events of `deliveries`, and says what was
 * left out. `touched` holds every operation a recorded step named.
 */
export function attributeWebhooks(
  deliveries: readonly WebhookDelivery[],
  moves: readonly Move[],
  touched: ReadonlySet<string>,
): WebhookAttribution {
  const leftOut = new Map<string, number>();
  const leave = (why: string, n = 1) => void leftOut.set(why, (leftOut.get(why) ?? 0) + n);
  const events = new Map<string, Event>();
  for (const d of [...deliveries].sort((a, b) => a.seq - b.seq)) {
    if (d.signature !== 'valid') {
      leave(d.signature === 'invalid' ? LEFT_OUT.invalid : LEFT_OUT.unchecked);
      continue;
    }
    const e = eventOf(d);
    if (!e) leave(LEFT_OUT.shape);
    else if (!events.has(e.id)) events.set(e.id, { ...e, arrival: d.seq });
  }
  const byOperation = new Map<string, Event[]>();
  for (const e of events.values()) {
    if (!touched.has(e.operation)) {
      leave(LEFT_OUT.untouched);
      continue;
    }
    const found = moves.filter((m) => m.operation === e.operation && `operation.${m.status}` === e.type);
    if (found.length === 1) e.move = found[0];
    byOperation.set(e.operation, [...(byOperation.get(e.operation) ?? []), e]);
  }
  const placed = placeable(byOperation, leave);
  const onStep = new Map<Step, string[]>();
  for (const e of placed) onStep.set(e.move!.step, [...(onStep.get(e.move!.step) ?? []), e.type]);
  for (const [step, types] of onStep) step.expect = { ...(isObject(step.expect) ? step.expect : {}), webhooks: types };
  return { events: events.size, attributed: placed.length, leftOut };
}

/**
 * The events that can be placed, in arrival order. An event no step reproduces is left out; when it came before
 * (by `created_at`, then arrival) a placed event of its operation, the replay of that event's step may send it too
 * (a status passed through within one request), so that step gets no expectation at all.
 */
function placeable(byOperation: Map<string, Event[]>, leave: (why: string, n?: number) => void): Event[] {
  const tainted = new Set<Step>();
  const all: Event[] = [];
  for (const list of byOperation.values()) {
    list.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.arrival - b.arrival);
    list.forEach((e, i) => {
      if (e.move) return;
      leave(LEFT_OUT.unreproduced);
      const next = list.slice(i + 1).find((later) => later.move);
      if (next) tainted.add(next.move!.step);
    });
    all.push(...list.filter((e) => e.move));
  }
  const out: Event[] = [];
  for (const e of all.sort((a, b) => a.arrival - b.arrival)) {
    if (tainted.has(e.move!.step)) leave(LEFT_OUT.incomplete);
    else out.push(e);
  }
  return out;
}

/** The header comment's lines about the webhooks. */
export function webhookNote(a: WebhookAttribution): string[] {
  const lines = [
    ` Webhooks: ${a.events} distinct events verified and forwarded; ${a.attributed} are expected (expect.webhooks) on the`,
    '   step whose replay sends them: the one making their operation enter the status they announce.',
  ];
  const left = [...a.leftOut].reduce((n, [, k]) => n + k, 0);
  if (left > 0) lines.push(` ${left} webhook deliveries or events are left out:`);
  for (const [why, n] of a.leftOut) lines.push(`   ${n}: ${why}`);
  return lines;
}
