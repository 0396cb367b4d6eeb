// The duration grammar (duration.ts) as a zod schema, for request bodies and fixture files.
import { z } from 'zod';
import { DURATION_HINT, formatDuration, MAX_DURATION_MS, parseDurationText } from './duration.js';

/**
 * A zod schema of a duration on the wire: a duration string, or a non-negative integer of milliseconds; parses to
 * milliseconds. `max` bounds it (default MAX_DURATION_MS).
 */
export function durationSchema(max: number = MAX_DURATION_MS) {
  return z.union([z.number(), z.string()]).transform((v, ctx) => {
    if (typeof v === 'number') {
      if (Number.isInteger(v) && v >= 0 && v <= max) return v;
      ctx.addIssue({
        code: 'custom',
        message: `must be whole milliseconds from 0 to ${max} (${formatDuration(max)}), or ${DURATION_HINT}`,
      });
      return z.NEVER;
    }
    const r = parseDurationText(v, max);
    if (r.ok) return r.ms;
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  });
}
