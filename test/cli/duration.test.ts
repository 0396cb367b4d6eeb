// One duration grammar for every flag and control: `sandbox time advance` takes what `--read-latency` takes (1.5s,
// 1h30m), both refuse what the contract refuses (2400000000h), and the sandbox moves by exactly the parsed amount.
import { describe, expect, it } from 'vitest';
import { advance } from '../../src/cli/commands/sandbox/time/run.js';
import { durationArg as parseDuration, latencyArg as parseLatency } from '../../src/cli/durations.js';
import { UsageError } from '../../src/cli/errors.js';
import { useSandbox } from '../helpers/sandbox.js';
import { inProcessDeps } from './run-deps.js';

const ADMIN = 'pg_admin_duration_test';
const sandbox = useSandbox({ per: 'file', frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: ADMIN });

describe('durations on the command line', () => {
  it('time advance and --read-latency accept the same grammar', () => {
    expect(parseDuration('1.5s')).toBe('1.5s');
    expect(parseDuration('1h30m')).toBe('1h30m');
    expect(parseDuration('1500')).toBe(1500);
    expect(parseLatency('1.5s')).toBe(1500);
    expect(parseLatency('1500')).toBe(1500);
  });

  it('both refuse what the contract refuses, with the reason', () => {
    expect(() => parseDuration('2400000000h')).toThrow(UsageError);
    expect(() => parseDuration('2400000000h')).toThrow('must be at most 366d');
    expect(() => parseDuration('1.0005s')).toThrow('whole number of milliseconds');
    expect(() => parseDuration('ten')).toThrow('must be a duration');
    expect(() => parseLatency('61s')).toThrow('must be at most 60s');
  });

  it('time advance 1.5s moves the sandbox clock by exactly 1500 ms', async () => {
    const before = sandbox.sandbox.clock.now();
    const deps = inProcessDeps(sandbox, { adminToken: ADMIN });
    await advance({ duration: '1.5s', json: true }, deps);
    expect(sandbox.sandbox.clock.now() - before).toBe(1500);
  });
});
