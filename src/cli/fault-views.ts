// Human views of fault injection: the faults in force (what each does, to whom, for how long, how often it fired)
// and the faults an operation met (the `faults` block of `paygate operation history`).
import type { Fault, FaultEvent } from '../contract/faults.js';
import { out } from './colors.js';
import { dim, keyValue, table, type Cell } from './render.js';

/** What a drift does: `drift remove_field settlement_amount`, `drift extra_status 202`. */
function driftText(f: Pick<Fault, 'status' | 'drift' | 'field' | 'to' | 'value'>): string {
  const what =
    f.drift === 'extra_status'
      ? String(f.status)
      : f.drift === 'rename_field'
        ? `${f.field} → ${f.to}`
        : f.drift === 'change_field'
          ? `${f.field} = ${JSON.stringify(f.value)}`
          : f.drift === 'out_of_order'
            ? `status ${f.value === undefined ? 'earlier' : JSON.stringify(f.value)}`
            : (f.field ?? '');
  return `drift ${f.drift} ${what}`;
}

/** What the fault does: `503 cancel_not_durable`, `+1500 ms`, `drop response`, `drift …`. */
function effect(f: Pick<Fault, 'kind' | 'status' | 'code' | 'latency_ms' | 'drift' | 'field' | 'to' | 'value'>): Cell {
  if (f.kind === 'status') return { text: `${f.status} ${f.code}`, style: (t) => out.red(t) };
  if (f.kind === 'latency') return `+${f.latency_ms} ms`;
  if (f.kind === 'drift') return { text: driftText(f), style: (t) => out.magenta(t) };
  return { text: 'drop response', style: (t) => out.yellow(t) };
}

/** For how long: `next 3 (2 left)`, `p=0.25 seed 7`, `until cleared`. */
function lifetime(f: Fault): string {
  if (f.count !== null) return `next ${f.count} (${f.remaining} left)`;
  if (f.probability !== null) return `p=${f.probability} seed ${f.seed}`;
  return 'until cleared';
}

/** `GET /sandbox/faults`. */
export function faultsView(faults: readonly Fault[]): string {
  if (faults.length === 0) return out.dim('no faults: every endpoint answers normally');
  return table(
    ['id', 'endpoint', 'effect', 'shop_id', 'lifetime', 'matched', 'fired', 'source'],
    faults.map((f): Cell[] => [
      f.id,
      f.endpoint,
      effect(f),
      f.shop_id ?? dim('every shop'),
      lifetime(f),
      { text: String(f.matched), align: 'right' },
      { text: String(f.fired), align: 'right' },
      f.source,
    ]),
  );
}

/** The answer of `faults set`: the fault now in force. */
export function faultView(f: Fault): string {
  return keyValue([
    ['id', f.id],
    ['endpoint', f.endpoint],
    ['effect', effect(f)],
    ['shop_id', f.shop_id ?? dim('every shop')],
    ['lifetime', lifetime(f)],
  ]);
}

/** `DELETE /sandbox/faults[/id]`. */
export function removedView(res: { removed: number }): string {
  return `${res.removed} fault${res.removed === 1 ? '' : 's'} removed`;
}

/** The faults an operation met, oldest first (`paygate operation history`). */
export function faultEventsView(events: readonly FaultEvent[]): string {
  return table(
    ['at', 'endpoint', 'effect', 'fault_id'],
    events.map((e): Cell[] => [e.at, e.endpoint, effect(e), e.fault_id]),
  );
}
