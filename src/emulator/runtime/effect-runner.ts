// The effect runner: carries out what the domain decided, once its changes are written — timers on the sandbox clock
// (a timer that falls due asks the domain again what it still does, and writes that; a failed write tries again a
// little later) and the release of a create waiting on its operation's admission. The write pipeline's last
// subscriber (src/emulator/runtime/pipeline.ts).
import type { Effect, Outcome, TimerCommand } from '../../domain/effects.js';
import type { DomainContext } from '../../domain/state.js';
import { runTimer } from '../../domain/timers.js';
import { StoreUnavailableError } from '../../store/errors.js';
import { AdmissionWaits } from './admissions.js';
import type { SandboxClock } from './clock.js';
import { TIMER_RETRY_MS } from './errors.js';

export interface EffectRunnerDeps {
  clock: SandboxClock;
  /** What the domain sees now. */
  ctx(): DomainContext;
  /** Write an outcome (through the pipeline); its effects come back to `run` once written. */
  persist(outcome: Outcome): Promise<void>;
}

export class EffectRunner {
  readonly #admissions = new AdmissionWaits();

  constructor(private readonly deps: EffectRunnerDeps) {}

  /** Carry out effects the domain decided (after their changes were written). */
  run(effects: readonly Effect[]): void {
    for (const e of effects) {
      if (e.kind === 'timer') this.deps.clock.schedule(e.at, () => this.#fire(e.command));
      else this.release(e.operation_id);
    }
  }

  /**
   * A timer fell due: the domain decides what it still does; a failed write tries again a little later. A waiting
   * create is released by one route only, the `resolve_admission` effect: the domain's, once its decision is written
   * (or by the command that decided it first, such as a cancel); this runner's, when the decision could not be
   * written (the create then answers 503 store_unavailable).
   */
  async #fire(command: TimerCommand): Promise<void> {
    const { clock } = this.deps;
    try {
      const outcome = runTimer(this.deps.ctx(), command);
      if (outcome) await this.deps.persist(outcome);
    } catch (e) {
      if (command.kind === 'finish_admission')
        this.run([{ kind: 'resolve_admission', operation_id: command.operation_id }]);
      if (!(e instanceof StoreUnavailableError)) throw e;
      clock.schedule(clock.now() + TIMER_RETRY_MS, () => this.#fire(command));
    }
  }

  /** Resolves once the admission of operation `id` is decided and written, or could not be. */
  waitForAdmission(id: string): Promise<void> {
    return this.#admissions.wait(id);
  }

  /** A create waiting on this operation's admission may answer now (only through `run`'s resolve_admission). */
  private release(id: string): void {
    this.#admissions.release(id);
  }

  /** Sandbox reset: every waiting create answers now. */
  releaseAll(): void {
    this.#admissions.releaseAll();
  }

  /** The service stopped: every waiting create, and every later one, rejects with `error`. */
  close(error: Error): void {
    this.#admissions.close(error);
  }
}
