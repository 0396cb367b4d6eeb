// Colour for stdout and stderr: chalk, switched off when the stream is not a TTY or NO_COLOR is set.
// chalk 5 itself ignores NO_COLOR (and colours non-TTYs on Azure Pipelines), so the level is decided here.
import { Chalk, chalkStderr, type ChalkInstance } from 'chalk';
import defaultChalk from 'chalk';

type Level = 0 | 1 | 2 | 3;

function levelFor(stream: NodeJS.WriteStream, detected: number): Level {
  const env = process.env;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if ('FORCE_COLOR' in env) return detected as Level;
  if (!stream.isTTY) return 0;
  return detected as Level;
}

/** Colours for what goes to stdout. */
export const out: ChalkInstance = new Chalk({ level: levelFor(process.stdout, defaultChalk.level) });
/** Colours for what goes to stderr (errors, hints, notes). */
export const err: ChalkInstance = new Chalk({ level: levelFor(process.stderr, chalkStderr.level) });

const STATUS_COLOUR: Record<string, (c: ChalkInstance, s: string) => string> = {
  completed: (c, s) => c.green(s),
  pending: (c, s) => c.yellow(s),
  awaiting_confirmation: (c, s) => c.yellow(s),
  manual_check: (c, s) => c.magenta(s),
  rejected: (c, s) => c.red(s),
  cancelled: (c, s) => c.red(s),
  amount_selection: (c, s) => c.cyan(s),
  already_terminal: (c, s) => c.yellow(s),
  ok: (c, s) => c.green(s),
  unhealthy: (c, s) => c.red(s),
  // receipt_evidence_status
  complete: (c, s) => c.green(s),
  partial: (c, s) => c.yellow(s),
  not_ready: (c, s) => c.dim(s),
  unavailable: (c, s) => c.red(s),
  // sandbox keys and evidence switch
  active: (c, s) => c.green(s),
  revoked: (c, s) => c.red(s),
  available: (c, s) => c.green(s),
  // flexible links (GET /sandbox/links/:id)
  confirmed: (c, s) => c.green(s),
  expired: (c, s) => c.red(s),
};

/** A status word coloured by meaning: completed green, pending yellow, manual_check magenta, rejected/cancelled red. */
export function status(s: string, c: ChalkInstance = out): string {
  const f = STATUS_COLOUR[s];
  return f ? f(c, s) : s;
}
