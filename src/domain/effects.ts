// The effects a domain command decides besides its changes: timers (a command to run when sandbox time reaches a
// moment) and the release of a create waiting on its admission. They are plain data: the emulator persists the
// changes, then carries the effects out; restart recovery asks `timersOf` again for every stored record, so a
// timer never needs a table of its own. Every rule about *when* something happens lives here.
import type { DomainContext, StateChange } from './state.js';
import type { OperationRecord } from './operation.js';
import type { LinkRecord } from './links.js';
import type { WorldIndex } from './world.js';

/** A command the sandbox clock runs when its time comes; decided again against the state at that moment. */
export type TimerCommand =
  | { kind: 'finish_admission'; operation_id: string }
  | { kind: 'expire_payment'; operation_id: string }
  | { kind: 'settle_payout'; operation_id: string; outcome: 'completed' | 'failed' }
  | { kind: 'expire_link'; link_id: string };

export type Effect =
  /** Run `command` when sandbox time reaches `at` (epoch ms). */
  | { kind: 'timer'; at: number; command: TimerCommand }
  /** A create waiting on this operation's admission may answer now (spec §4.7 rule 6: a cancel won the race). */
  | { kind: 'resolve_admission'; operation_id: string };

/** What a command returns: the changes to write as one transaction, and the effects to carry out once written. */
export interface Outcome {
  changes: StateChange[];
  effects: Effect[];
}

/** The statuses in which timersOf gives an operation a timer: restart recovery decodes only operations in these. */
export const TIMER_STATUSES: ReadonlySet<string> = new Set(['admitting', 'pending', 'awaiting_confirmation']);

/** The timers an operation needs in its current status (none for a terminal one; see TIMER_STATUSES). */
export function timersOf(world: WorldIndex, op: OperationRecord): Effect[] {
  if (op.status === 'admitting') {
    return [
      { kind: 'timer', at: Date.parse(op.accept_at), command: { kind: 'finish_admission', operation_id: op.id } },
    ];
  }
  if (op.type === 'payment' && op.expires_at && (op.status === 'pending' || op.status === 'awaiting_confirmation')) {
    return [{ kind: 'timer', at: Date.parse(op.expires_at), command: { kind: 'expire_payment', operation_id: op.id } }];
  }
  if (op.type === 'payout' && op.status === 'pending' && op.provider_id && !op.pool_id) {
    // A pool payout completes when matched payments fill it; any other pending payout settles on its provider's
    // delay, and the `+fail` magic tag makes that settlement a failure.
    const provider = world.providers.get(op.provider_id);
    if (!provider) return [];
    const since = Date.parse(op.history.at(-1)?.at ?? op.updated_at);
    const outcome = op.magic.includes('fail') ? 'failed' : 'completed';
    return [
      {
        kind: 'timer',
        at: since + provider.payout_settlement_ms,
        command: { kind: 'settle_payout', operation_id: op.id, outcome },
      },
    ];
  }
  return [];
}

/** The timer a flexible link needs: its lifetime ends while the payer has not chosen. */
export function linkTimersOf(link: LinkRecord): Effect[] {
  if (link.status !== 'amount_selection' || !link.expires_at) return [];
  return [{ kind: 'timer', at: Date.parse(link.expires_at), command: { kind: 'expire_link', link_id: link.id } }];
}

/** The outcome of a command that moved `op` (and possibly other operations among `changes`): their timers follow. */
export function outcomeOf(ctx: Pick<DomainContext, 'world'>, changes: StateChange[], extra: Effect[] = []): Outcome {
  const effects: Effect[] = [];
  for (const ch of changes) {
    if (ch.kind === 'operation') effects.push(...timersOf(ctx.world, ch.op));
    else if (ch.kind === 'link') effects.push(...linkTimersOf(ch.link));
  }
  return { changes, effects: effects.concat(extra) };
}
