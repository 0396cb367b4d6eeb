// Shared by the CLI suites that run the binary against a sandbox of this process: useLiveSandbox() opens the sandbox
// once per file on 127.0.0.1:0 (the CLI is a subprocess, so always over HTTP) with a private config dir, gives the
// environment of a CLI run and a raw request to compare --json with, and closes both after the file; plus the common
// checks of a CLI result.
import { afterAll, beforeAll, expect } from 'vitest';
import type { SandboxOptions } from '../../src/emulator/index.js';
import { useSandbox, type SandboxUnderTest } from '../helpers/sandbox.js';
import { tempConfig, type CliResult } from './run-cli.js';

export interface LiveSandbox {
  /** The sandbox under test, listening. Read inside tests and hooks. */
  readonly h: SandboxUnderTest;
  /** The config file the CLI runs with (PAYGATE_CONFIG), in a directory removed after the file. */
  readonly cfg: ReturnType<typeof tempConfig>;
  /** PAYGATE_CONFIG, PAYGATE_BASE_URL, PAYGATE_API_KEY (the shop's key) and, given `adminToken`, PAYGATE_ADMIN_TOKEN. */
  readonly env: Record<string, string>;
  /** A raw request with the shop's key or the admin token; resolves to the parsed body (what --json must print). */
  api(method: string, path: string, auth: 'key' | 'admin', body?: unknown): Promise<unknown>;
}

/** A sandbox for the whole file, reached with the key of demo shop `shop` (and the admin token, when one is given). */
export function useLiveSandbox(opts: SandboxOptions & { shop: string }): LiveSandbox {
  const { shop, ...options } = opts;
  const h = useSandbox({ ...options, transport: 'http', per: 'file' });
  const cfg = tempConfig();
  let env: Record<string, string> | undefined;
  beforeAll(() => {
    env = { PAYGATE_CONFIG: cfg.path, PAYGATE_BASE_URL: h.baseUrl, PAYGATE_API_KEY: h.keyOf(shop) };
    if (opts.adminToken !== undefined) env.PAYGATE_ADMIN_TOKEN = opts.adminToken;
  });
  afterAll(() => cfg.cleanup());
  return {
    h,
    cfg,
    get env() {
      if (!env) throw new Error('useLiveSandbox: read .env inside a test or hook');
      return env;
    },
    async api(method, path, auth, body) {
      const credential: Record<string, string> =
        auth === 'key' ? { 'x-api-key': h.keyOf(shop) } : { 'x-admin-token': h.sandbox.adminToken! };
      const res = await fetch(h.baseUrl + path, {
        method,
        headers: { ...credential, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return res.json();
    },
  };
}

/** Exit 0 with nothing on stderr: stdout parsed as JSON. */
export function json<T = Record<string, unknown>>(r: CliResult): T {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/** Exit 0: stdout. */
export function ok(r: CliResult): string {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** Exit 0 and no colour codes (stdout is not a TTY): stdout. */
export function plainOk(r: CliResult): string {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toContain('\x1b[');
  return r.stdout;
}

/** A usage error: exit 2, no hang on stdin, the message on stderr. */
export function usage(r: CliResult, ...says: string[]): void {
  expect(r.timedOut).toBe(false);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  for (const s of says) expect(r.stderr).toContain(s);
}
