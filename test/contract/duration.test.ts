import { describe, expect, it } from 'vitest';
import { formatDuration, MAX_DURATION_MS, parseDuration, parseDurationText } from '../../src/contract/duration.js';
import { durationSchema } from '../../src/contract/duration-schema.js';

describe('the one duration grammar', () => {
  it('takes bare milliseconds, units, decimals and compound parts', () => {
    expect(parseDuration('1500')).toBe(1500);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration(' 10s ')).toBe(10_000);
  });
  it('refuses garbage, fractions of a millisecond and anything over 366 days', () => {
    for (const bad of ['', 'abc', '10', '-1s', '1.0005s', '10 s', 's', '1x', '2400000000h', '367d', '1e3']) {
      if (bad === '10') continue;
      expect(parseDurationText(bad).ok, bad).toBe(false);
    }
    expect(parseDurationText('2400000000h')).toEqual({ ok: false, message: 'must be at most 366d' });
    expect(parseDuration('366d')).toBe(MAX_DURATION_MS);
  });
  it('formats back to the shortest exact text', () => {
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(0)).toBe('0ms');
    expect(parseDuration(formatDuration(123_456_789))).toBe(123_456_789);
  });
  it('as a zod schema: strings or whole milliseconds, bounded', () => {
    const s = durationSchema(60_000);
    expect(s.parse('1.5s')).toBe(1500);
    expect(s.parse(250)).toBe(250);
    expect(s.safeParse(60_001).success).toBe(false);
    expect(s.safeParse(1.5).success).toBe(false);
    expect(s.safeParse('2m').success).toBe(false);
  });
});
