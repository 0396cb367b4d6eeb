// Test helpers for the CLI: run the real `node bin/paygate.js` as a subprocess (no TTY, a private config file),
// a throw-away config dir, a port nobody listens on, and a fake API (the shared scripted server) for shapes the sandbox
// cannot give.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptedServer } from '../helpers/scripted.js';

export const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the process had to be killed because it did not finish (e.g. it waited for input). */
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  /** Extra environment; PAYGATE_*, NO_COLOR and FORCE_COLOR of the test process are never inherited. */
  env?: Record<string, string | undefined>;
  /** Kill the process after this many ms. Default 20 s. */
  timeout?: number;
  /** Extra node flags before the script, e.g. `--import`. */
  nodeArgs?: string[];
  /** The working directory. Default: the repository root. */
  cwd?: string;
}

/** Every output of every run, so a test can assert that a secret never appeared anywhere. */
export const transcript: string[] = [];

/**
 * Run the CLI with stdin, stdout and stderr as pipes (no TTY). stdin is left open and never written: a CLI that
 * tried to prompt or read input would hang and be reported as `timedOut`.
 */
export function runCli(args: readonly string[], opts: RunOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('PAYGATE_') || k === 'NO_COLOR' || k === 'FORCE_COLOR') continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], {
      env,
      cwd: opts.cwd ?? ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeout ?? 20_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      transcript.push(stdout, stderr);
      resolve({ code, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

/** A fresh directory for PAYGATE_CONFIG; `cleanup()` removes it. */
export function tempConfig(): { dir: string; path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-cli-'));
  return {
    dir,
    path: join(dir, 'paygate', 'config.json'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export { deadPort } from '../helpers/transport.js';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeServer {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A node:http fake on 127.0.0.1:0 (the scripted server of test/helpers/scripted.ts); `handle` answers each request. */
export async function fakeServer(
  handle: (req: SeenRequest) => { status: number; body?: unknown },
): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const server = await scriptedServer((rec) => {
    const seen = { method: rec.method, url: rec.url, headers: rec.headers, body: rec.body.toString('utf8') };
    requests.push(seen);
    return handle(seen);
  }, 'http');
  return { baseUrl: server.baseUrl, requests, close: () => server.close() };
}

/** A contract-shaped balances body. */
export const BALANCES = {
  balances: [
    { currency: 'RUB', balance: '1000000.00', current_minus: '0.00', reserved: '0.00' },
    { currency: 'USDT', balance: '-12.50', current_minus: '12.50', reserved: '0.00' },
  ],
};
