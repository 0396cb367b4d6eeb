// What a timer does when the sandbox clock reaches it: the domain decides again, against the state at that moment,
// whether its command still applies (a cancelled payment no longer expires, a settled payout is not settled twice).
import type { DomainContext } from './state.js';
import { finishAdmission } from './create.js';
import { expire, providerSettles } from './commands.js';
import { expireLink } from './links.js';
import { outcomeOf, type Outcome, type TimerCommand } from './effects.js';

/** The outcome of a due timer, or undefined when its command no longer applies. */
export function runTimer(ctx: DomainContext, command: TimerCommand): Outcome | undefined {
  switch (command.kind) {
    case 'finish_admission': {
      const r = finishAdmission(ctx, command.operation_id);
      return (
        r && {
          changes: r.changes,
          effects: [...r.effects, { kind: 'resolve_admission', operation_id: command.operation_id }],
        }
      );
    }
    case 'expire_payment': {
      const op = ctx.state.operation(command.operation_id);
      const moved = op && expire(ctx, op);
      return moved;
    }
    case 'settle_payout': {
      const op = ctx.state.operation(command.operation_id);
      if (!op || op.status !== 'pending') return undefined;
      return providerSettles(ctx, op, command.outcome);
    }
    case 'expire_link': {
      const changes = expireLink(ctx, command.link_id);
      return changes && outcomeOf(ctx, changes);
    }
  }
}
