// The one duration grammar of paygate: CLI flags, sandbox controls, fixture files and scenario steps all parse
// durations here. A duration is a bare number of milliseconds (`1500`) or one or more `<number><unit>` parts
// (`500ms`, `1.5s`, `30m`, `2h`, `1d`, `1h30m`), whole milliseconds in the end, from 0 up to MAX_DURATION_MS.
// No dependencies, so the CLI can parse flags without loading zod (its zod schema: duration-schema.ts).

/** The largest duration accepted anywhere: 366 days. Larger values are refused, never wrapped or clamped. */
export const MAX_DURATION_MS = 366 * 86_400_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/** What the grammar accepts, for error messages and help texts. */
export const DURATION_HINT = 'a duration such as 500ms, 1.5s, 30m, 2h, 1d or 1h30m, or a number of milliseconds';

export type DurationResult = { ok: true; ms: number } | { ok: false; message: string };

/** Parse a duration; the message says what is wrong and what is accepted. */
export function parseDurationText(text: string, max: number = MAX_DURATION_MS): DurationResult {
  const s = text.trim();
  let ms: number;
  if (/^\d+$/.test(s)) {
    ms = Number(s);
  } else {
    ms = 0;
    PART.lastIndex = 0;
    let seen = 0;
    while (PART.lastIndex < s.length) {
      const at = PART.lastIndex;
      const m = PART.exec(s);
      if (!m || m.index !== at) return { ok: false, message: `must be ${DURATION_HINT}` };
      ms += Number(m[1]) * UNIT_MS[m[2]!]!;
      seen++;
    }
    if (seen === 0) return { ok: false, message: `must be ${DURATION_HINT}` };
    ms = Math.round(ms * 1000) / 1000;
  }
  if (!Number.isFinite(ms) || !Number.isInteger(ms))
    return { ok: false, message: 'must be a whole number of milliseconds (1.5s is fine, 1.0005s is not)' };
  if (ms > max) return { ok: false, message: `must be at most ${formatDuration(max)}` };
  return { ok: true, ms };
}

/** Parse a duration or return undefined. */
export function parseDuration(text: string, max?: number): number | undefined {
  const r = parseDurationText(text, max);
  return r.ok ? r.ms : undefined;
}

/** Milliseconds as the shortest exact duration text (`90000` → `1m30s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0ms';
  let rest = ms;
  let out = '';
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}
