// Duration flags and arguments, read with the project's one grammar (src/contract/duration.ts) when a command runs —
// not in its definition, so `--help` loads nothing of the contract. A bad value is a usage error (exit 2).
import { parseDurationText } from '../contract/duration.js';
import { UsageError } from './errors.js';

/** `sandbox time advance <duration>`: sent as given (the sandbox reads the same grammar), or bare milliseconds. */
export function durationArg(text: string): string | number {
  const r = parseDurationText(text);
  if (!r.ok) throw new UsageError(`<duration> ${r.message}`);
  return /^\d+$/.test(text.trim()) ? r.ms : text.trim();
}

/** `--read-latency`: 0 to 60 s, as milliseconds. */
export function latencyArg(text: string): number {
  const r = parseDurationText(text, 60_000);
  if (r.ok) return r.ms;
  const unbounded = parseDurationText(text);
  throw new UsageError(
    unbounded.ok
      ? '--read-latency must be at most 60s (60000 ms)'
      : `--read-latency must be milliseconds or a duration such as 1500ms, 2s or 1.5s: ${r.message}`,
  );
}
