// The server's limits are flags of `sandbox start` (docs/limits.md): listed in its help, checked
// (exit 2 for a value that is not a positive whole number), and handed to the sandbox as SandboxOptions.limits.
import { describe, expect, it } from 'vitest';
import { sandboxStartOptions } from '../../../../src/cli/commands/sandbox/define.js';
import { serverLimits } from '../../../../src/emulator/server-limits.js';
import { runCli } from '../../run-cli.js';

describe('sandbox start limit flags', () => {
  it('are listed in --help', async () => {
    const r = await runCli(['sandbox', 'start', '--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--max-connections',
      '--headers-timeout',
      '--request-timeout',
      '--keep-alive-timeout',
      '--upload-deadline',
      '--max-streams',
      '--max-streams-per-credential',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('a value that is not a positive whole number is exit 2', async () => {
    const r = await runCli(['sandbox', 'start', '--in-memory', '--port', '0', '--max-connections', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-connections/);
    const t = await runCli(['sandbox', 'start', '--in-memory', '--port', '0', '--headers-timeout', '1.5']);
    expect(t.code).toBe(2);
  });

  it('reach the sandbox as limits (seconds as ms); the ones not given keep their defaults', () => {
    const opts = {
      maxConnections: 64,
      headersTimeout: 5,
      requestTimeout: 20,
      keepAliveTimeout: 7,
      uploadDeadline: 9,
      maxStreams: 32,
      maxStreamsPerCredential: 4,
    };
    const { limits } = sandboxStartOptions({ opts, args: [] } as unknown as Parameters<typeof sandboxStartOptions>[0]);
    const resolved = serverLimits(limits);
    expect(resolved.connections).toMatchObject({
      maxConnections: 64,
      headersTimeoutMs: 5000,
      requestTimeoutMs: 20_000,
      keepAliveTimeoutMs: 7000,
      uploadDeadlineMs: 9000,
    });
    expect(resolved.streams).toMatchObject({ total: 32, perCredential: 4, maxBufferedBytes: 64 * 1024 });
    const none = serverLimits(
      sandboxStartOptions({ opts: {}, args: [] } as unknown as Parameters<typeof sandboxStartOptions>[0]).limits,
    );
    expect(none).toEqual(serverLimits(undefined));
  });

  it('a headers timeout over the request timeout, or a limit that is not a positive integer, is refused clearly', () => {
    expect(() => serverLimits({ connections: { headersTimeoutMs: 40_000 } })).toThrow(
      /headers timeout \(40000 ms, --headers-timeout\) must not exceed the request timeout \(30000 ms/,
    );
    expect(() => serverLimits({ streams: { total: 0 } })).toThrow(/limits\.streams\.total must be a positive integer/);
  });
});
