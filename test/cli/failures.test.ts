// Failures through the binary: every failure with the right exit code and, under --json, the JSON error body
// `{ "error": { "code", "message", "http_status" } }` on stdout. A non-ASCII key is bad usage (2), not a connection
// failure (3); a server that is not paygate (an HTML page, no such paths, a base URL ending in /v1) is 4, not an API
// error; `--no-color` is an option.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scriptedServer, type TestServer } from '../helpers/scripted.js';
import { useLiveSandbox } from './live-sandbox.js';
import {
  BALANCES,
  deadPort,
  fakeServer,
  runCli,
  tempConfig,
  transcript,
  type CliResult,
  type FakeServer,
} from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

interface ErrorBody {
  error: { code: string; message: string; http_status: number | null; hint?: string };
}

/** Exit `code`, and stdout is exactly one JSON error body. */
function jsonError(r: CliResult, code: number): ErrorBody['error'] {
  expect(r.code, r.stderr).toBe(code);
  const body = JSON.parse(r.stdout) as ErrorBody;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.code).toBe('string');
  expect(typeof body.error.message).toBe('string');
  expect(body.error).toHaveProperty('http_status');
  return body.error;
}

const cfg = tempConfig();
const KEY = 'pg_failures_key_0000';
let dead: string;
let html: TestServer;
let foreign: FakeServer;
let balances: FakeServer;
beforeAll(async () => {
  dead = `http://127.0.0.1:${await deadPort()}`;
  html = await scriptedServer((req) =>
    req.url.startsWith('/missing')
      ? {
          status: 404,
          raw: '<html><body><h1>404 Not Found</h1><hr>nginx</body></html>',
          headers: { 'content-type': 'text/html' },
        }
      : {
          status: 200,
          raw: '<!doctype html><html><body>Welcome</body></html>',
          headers: { 'content-type': 'text/html; charset=utf-8' },
        },
  );
  // Another JSON API: every unknown path is its own 404 body.
  foreign = await fakeServer(() => ({ status: 404, body: { error: 'Not Found', path: 'unknown' } }));
  balances = await fakeServer(() => ({ status: 200, body: BALANCES }));
});
afterAll(async () => {
  await html.close();
  await foreign.close();
  await balances.close();
  cfg.cleanup();
});
const env = (more: Record<string, string> = {}) => ({ PAYGATE_CONFIG: cfg.path, ...more });

describe('a key or token with a non-ASCII character is bad usage naming where it came from', () => {
  it('--api-key: exit 2, not "failed to connect" with a hint to start the sandbox', async () => {
    const r = await runCli(['balances', '--api-key', 'pg_test_a_7Hq2Lm9XwR4tNс8V', '--base-url', dead], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--api-key contains a character that is not visible ASCII: "с" (U+0441) at position 24');
    expect(r.stderr).not.toContain('failed to connect');
    expect(r.stderr).not.toContain('sandbox start');
    expect(r.stdout).toBe('');
  });

  it('PAYGATE_API_KEY with a non-breaking space from a copy', async () => {
    const r = await runCli(['balances'], {
      env: env({ PAYGATE_API_KEY: 'pg_test_a_7Hq2Lm9XwR4tNc8V\u00a0', PAYGATE_BASE_URL: dead }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PAYGATE_API_KEY contains a character that is not visible ASCII: U+00A0 at position 27');
  });

  it('--admin-token, and under --json the usage error is the JSON body', async () => {
    const r = await runCli(['sandbox', 'time', '--admin-token', 'pg_admin_tökén_0000', '--json'], {
      env: env({ PAYGATE_BASE_URL: dead }),
    });
    const error = jsonError(r, 2);
    expect(error).toMatchObject({ code: 'usage_error', http_status: null });
    expect(error.message).toMatch(
      /^--admin-token contains a character that is not visible ASCII: "ö" \(U\+00F6\) at position 11$/,
    );
    expect(r.stderr).toContain('--admin-token contains');
  });
});

describe('a server that is not paygate exits 4', () => {
  it('an HTML page where JSON was expected', async () => {
    const r = await runCli(['balances'], { env: env({ PAYGATE_BASE_URL: html.baseUrl, PAYGATE_API_KEY: KEY }) });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(
      `this does not look like a paygate API at ${html.baseUrl}: GET /v1/balances answered HTTP 200 with an HTML page instead of JSON`,
    );
    expect(r.stderr).toContain('check PAYGATE_BASE_URL');
  });

  it('an HTML 404 (a web server, a base URL with a wrong path), under --json', async () => {
    const r = await runCli(['balances', '--json', '--base-url', `${html.baseUrl}/missing`], {
      env: env({ PAYGATE_API_KEY: KEY }),
    });
    const error = jsonError(r, 4);
    expect(error).toMatchObject({ code: 'not_paygate', http_status: 404 });
    expect(error.message).toBe(
      `this does not look like a paygate API at ${html.baseUrl}/missing: GET /v1/balances answered HTTP 404 with an HTML page`,
    );
    expect(error.hint).toContain('check --base-url');
  });

  it('another JSON API without these paths: not paygate, not not_found with a hint about operations', async () => {
    const r = await runCli(['state', 'some-id'], {
      env: env({ PAYGATE_BASE_URL: foreign.baseUrl, PAYGATE_API_KEY: KEY }),
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `this does not look like a paygate API at ${foreign.baseUrl}: POST /v1/get_operation_state answered HTTP 404 not_found`,
    );
    expect(r.stderr).not.toContain('no such operation');
  });

  it('sandbox controls on a server without them', async () => {
    const r = await runCli(['sandbox', 'time'], {
      env: env({ PAYGATE_BASE_URL: foreign.baseUrl, PAYGATE_ADMIN_TOKEN: 'pg_admin_x_0000' }),
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('GET /sandbox/clock answered HTTP 404');
    expect(r.stderr).toContain('the sandbox controls exist only on a paygate sandbox');
  });
});

describe('against a sandbox', () => {
  const live = useLiveSandbox({ shop: 'shop_a', frozenClock: true, adminToken: 'pg_admin_failures_0000' });

  it('a base URL ending in /v1: exit 4 and "remove /v1", with the key valid or not', async () => {
    const withKey = await runCli(['balances', '--base-url', `${live.h.baseUrl}/v1`], { env: live.env });
    expect(withKey.code, withKey.stderr).toBe(4);
    expect(withKey.stderr).toContain(
      `this does not look like a paygate API at ${live.h.baseUrl}/v1: GET /v1/balances answered HTTP 404 not_found`,
    );
    expect(withKey.stderr).toContain(
      `remove /v1 from --base-url: the CLI adds /v1 to each endpoint itself (use ${live.h.baseUrl})`,
    );
    const wrongKey = await runCli(['balances', '--json'], {
      env: { ...live.env, PAYGATE_BASE_URL: `${live.h.baseUrl}/v1/`, PAYGATE_API_KEY: KEY },
    });
    const error = jsonError(wrongKey, 4);
    expect(error).toMatchObject({ code: 'not_paygate', http_status: 401 });
    expect(error.hint).toContain('remove /v1 from PAYGATE_BASE_URL');
  });

  it("the gateway's own errors stay exit 1, with its code and status in the JSON body", async () => {
    const missing = await runCli(['state', '00000000-0000-4000-8000-000000000000', '--json'], { env: live.env });
    expect(jsonError(missing, 1)).toMatchObject({ code: 'operation_not_found', http_status: 404 });
    expect(missing.stderr).toContain('operation_not_found');
    const badKey = await runCli(['balances', '--json'], { env: { ...live.env, PAYGATE_API_KEY: KEY } });
    const error = jsonError(badKey, 1);
    expect(error).toMatchObject({ code: 'invalid_api_key', http_status: 401 });
    expect(error.hint).toContain('****0000');
    expect(badKey.stdout).not.toContain(KEY);
  });

  it('--expect-status: exit 1 when the create answers another status; under --json stdout stays the body alone', async () => {
    const r = await runCli(
      [
        'payment',
        'create',
        '--method',
        'WT_RUB_C2C',
        '--amount',
        '1500.00',
        '--currency',
        'RUB',
        '--client-id',
        'script+reject',
        '--expect-status',
        'completed',
        '--json',
      ],
      { env: live.env },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'payment', status: 'rejected' });
    expect(r.stderr).toContain('rejected: no_provider_accepted');
    expect(r.stderr).toContain('error: expected status completed, got rejected (no_provider_accepted');
    const met = await runCli(
      [
        'payout',
        'create',
        '--method',
        'WT_RUB_C2C',
        '--amount',
        '100.00',
        '--currency',
        'RUB',
        '--client-id',
        'script',
        '--number',
        '2200700000000004',
        '--expect-status',
        'pending',
      ],
      { env: live.env },
    );
    expect(met.code, met.stderr).toBe(0);
    const bad = await runCli(['payment', 'create', '--expect-status', 'done'], { env: live.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("argument 'done' is invalid");
  });
});

describe('--json errors that no server answered', () => {
  it('connection failed: exit 3, http_status null', async () => {
    const r = await runCli(['balances', '--json'], { env: env({ PAYGATE_BASE_URL: dead, PAYGATE_API_KEY: KEY }) });
    const error = jsonError(r, 3);
    expect(error).toMatchObject({ code: 'connection_failed', http_status: null });
    expect(error.hint).toContain('paygate sandbox start');
  });

  it("commander's usage errors and the command's own", async () => {
    const unknown = await runCli(['balances', '--json', '--bogus'], { env: env() });
    expect(jsonError(unknown, 2)).toMatchObject({
      code: 'usage_error',
      message: "unknown option '--bogus'",
      http_status: null,
    });
    const missing = await runCli(['state', '--json'], { env: env({ PAYGATE_API_KEY: KEY, PAYGATE_BASE_URL: dead }) });
    expect(jsonError(missing, 2)).toMatchObject({
      code: 'usage_error',
      message: 'missing <operation_id> or --merchant-operation-id',
    });
  });

  it('without --json stdout stays empty', async () => {
    const r = await runCli(['balances'], { env: env({ PAYGATE_BASE_URL: dead, PAYGATE_API_KEY: KEY }) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
  });

  it('never prints a key', () => {
    expect(transcript.join('\n')).not.toContain(KEY);
  });
});

describe('--no-color', () => {
  it('is an option, before or after the command, and wins over FORCE_COLOR', async () => {
    const e = env({ PAYGATE_BASE_URL: balances.baseUrl, PAYGATE_API_KEY: KEY, FORCE_COLOR: '1' });
    const coloured = await runCli(['balances'], { env: e });
    expect(coloured.stdout).toContain('\x1b[');
    for (const args of [
      ['--no-color', 'balances'],
      ['balances', '--no-color'],
    ]) {
      const r = await runCli(args, { env: e });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('1000000.00 RUB');
      expect(r.stdout).not.toContain('\x1b[');
    }
    const error = await runCli(['balances', '--no-color'], { env: { ...e, PAYGATE_BASE_URL: dead } });
    expect(error.code).toBe(3);
    expect(error.stderr).not.toContain('\x1b[');
  });
});
