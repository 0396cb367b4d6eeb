// Profiles in the config file, the flag > env > profile > default precedence, and API key masking.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BALANCES, fakeServer, runCli, tempConfig, transcript, type FakeServer } from '../../run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const KEY_PROFILE = 'pg_profile_key_AAAA1111';
const KEY_STAGING = 'pg_staging_key_BBBB2222';
const KEY_ENV = 'pg_env_key_CCCC3333';
const KEY_FLAG = 'pg_flag_key_DDDD4444';
const ADMIN_PROFILE = 'pg_admin_profile_EEEE5555';
const ADMIN_ENV = 'pg_admin_env_FFFF6666';
const ADMIN_FLAG = 'pg_admin_flag_GGGG7777';
const ALL_KEYS = [KEY_PROFILE, KEY_STAGING, KEY_ENV, KEY_FLAG, ADMIN_PROFILE, ADMIN_ENV, ADMIN_FLAG];

let cfg: ReturnType<typeof tempConfig>;
afterEach(() => cfg?.cleanup());
const env = () => ({ PAYGATE_CONFIG: cfg.path });

describe('paygate config', () => {
  it('set writes the file with mode 0600 and never echoes the key', async () => {
    cfg = tempConfig();
    const r = await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain('****1111');
    expect(statSync(cfg.path).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(cfg.path, 'utf8'));
    expect(file.profiles.default.api_key).toBe(KEY_PROFILE);
  });

  it('get prints base-url in full and api-key masked; an unset key is a usage error', async () => {
    cfg = tempConfig();
    expect((await runCli(['config', 'get', 'api-key'], { env: env() })).code).toBe(2);
    await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9/'], { env: env() });
    const url = await runCli(['config', 'get', 'base-url'], { env: env() });
    expect(url.stdout.trim()).toBe('http://127.0.0.1:9');
    const key = await runCli(['config', 'get', 'api-key'], { env: env() });
    expect(key.code).toBe(0);
    expect(key.stdout.trim()).toBe('****1111');
    const json = await runCli(['config', 'get', 'api-key', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'default',
      key: 'api-key',
      value: '****1111',
      source: 'profile',
      origin: 'profile "default"',
    });
  });

  it('get shows the value in effect and where it comes from: flag > env > profile > default', async () => {
    cfg = tempConfig();
    const byDefault = await runCli(['config', 'get', 'base-url'], { env: env() });
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout.trim()).toBe('http://127.0.0.1:4080');
    expect(byDefault.stderr.trim()).toBe('from default');
    await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9'], { env: env() });
    await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    const fromProfile = await runCli(['config', 'get', 'base-url'], { env: env() });
    expect([fromProfile.stdout.trim(), fromProfile.stderr.trim()]).toEqual([
      'http://127.0.0.1:9',
      'from profile "default"',
    ]);
    const fromEnv = await runCli(['config', 'get', 'api-key'], { env: { ...env(), PAYGATE_API_KEY: KEY_ENV } });
    expect([fromEnv.stdout.trim(), fromEnv.stderr.trim()]).toEqual(['****3333', 'from PAYGATE_API_KEY']);
    const fromFlag = await runCli(['config', 'get', 'api-key', '--api-key', KEY_FLAG, '--json'], {
      env: { ...env(), PAYGATE_API_KEY: KEY_ENV },
    });
    expect(JSON.parse(fromFlag.stdout)).toEqual({
      profile: 'default',
      key: 'api-key',
      value: '****4444',
      source: 'flag',
      origin: '--api-key',
    });
    const token = await runCli(['config', 'get', 'admin-token', '--json'], { env: env() });
    expect(token.code).toBe(0);
    expect(JSON.parse(token.stdout)).toEqual({
      profile: 'default',
      key: 'admin-token',
      value: null,
      source: null,
      origin: null,
    });
  });

  it('--profile and PAYGATE_PROFILE pick the profile for set and get', async () => {
    cfg = tempConfig();
    await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    await runCli(['config', 'set', 'api-key', KEY_STAGING, '--profile', 'staging'], { env: env() });
    expect((await runCli(['config', 'get', 'api-key', '--profile', 'staging'], { env: env() })).stdout.trim()).toBe(
      '****2222',
    );
    expect(
      (await runCli(['config', 'get', 'api-key'], { env: { ...env(), PAYGATE_PROFILE: 'staging' } })).stdout.trim(),
    ).toBe('****2222');
    expect((await runCli(['config', 'get', 'api-key'], { env: env() })).stdout.trim()).toBe('****1111');
  });

  it('list shows every profile with masked keys; use switches the current one', async () => {
    cfg = tempConfig();
    await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    await runCli(['config', 'set', 'api-key', KEY_STAGING, '--profile', 'staging'], { env: env() });
    await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9', '--profile', 'staging'], { env: env() });
    const list = await runCli(['config', 'list'], { env: env() });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('staging');
    expect(list.stdout).toContain('****1111');
    expect(list.stdout).toContain('****2222');
    expect(list.stdout).toContain(cfg.path);
    expect((await runCli(['config', 'use', 'nope'], { env: env() })).code).toBe(2);
    expect((await runCli(['config', 'use', 'staging'], { env: env() })).code).toBe(0);
    const json = JSON.parse((await runCli(['config', 'list', '--json'], { env: env() })).stdout);
    expect(json).toMatchObject({
      current_profile: 'staging',
      active_profile: 'staging',
      profiles: {
        default: { 'api-key': '****1111', 'base-url': null },
        staging: { 'api-key': '****2222', 'base-url': 'http://127.0.0.1:9' },
      },
    });
    expect((await runCli(['config', 'get', 'api-key'], { env: env() })).stdout.trim()).toBe('****2222');
  });

  it('rejects unknown keys and non-URL base URLs', async () => {
    cfg = tempConfig();
    const k = await runCli(['config', 'set', 'colour', 'red'], { env: env() });
    expect(k.code).toBe(2);
    expect(k.stderr).toContain('unknown config key');
    const u = await runCli(['config', 'set', 'base-url', 'not a url'], { env: env() });
    expect(u.code).toBe(2);
  });

  it('uses $XDG_CONFIG_HOME/paygate/config.json when PAYGATE_CONFIG is unset', async () => {
    cfg = tempConfig();
    const r = await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: { XDG_CONFIG_HOME: cfg.dir } });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(cfg.path, 'utf8')).profiles.default.api_key).toBe(KEY_PROFILE);
  });
});

describe('precedence: flag > env > profile > default', () => {
  let server: FakeServer;
  let other: FakeServer;
  beforeAll(async () => {
    server = await fakeServer(() => ({ status: 200, body: BALANCES }));
    other = await fakeServer(() => ({ status: 200, body: BALANCES }));
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  const lastKey = (s: FakeServer) => s.requests.at(-1)?.headers['x-api-key'];

  it('API key: profile, then env over profile, then flag over env', async () => {
    cfg = tempConfig();
    await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    await runCli(['config', 'set', 'base-url', server.baseUrl], { env: env() });

    expect((await runCli(['balances'], { env: env() })).code).toBe(0);
    expect(lastKey(server)).toBe(KEY_PROFILE);

    expect((await runCli(['balances'], { env: { ...env(), PAYGATE_API_KEY: KEY_ENV } })).code).toBe(0);
    expect(lastKey(server)).toBe(KEY_ENV);

    expect(
      (await runCli(['balances', '--api-key', KEY_FLAG], { env: { ...env(), PAYGATE_API_KEY: KEY_ENV } })).code,
    ).toBe(0);
    expect(lastKey(server)).toBe(KEY_FLAG);
  });

  it('base URL: profile, then env over profile, then flag over env', async () => {
    cfg = tempConfig();
    await runCli(['config', 'set', 'api-key', KEY_PROFILE], { env: env() });
    await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9', '--profile', 'p'], { env: env() });
    await runCli(['config', 'set', 'api-key', KEY_STAGING, '--profile', 'p'], { env: env() });
    const before = [server.requests.length, other.requests.length];

    const viaEnv = await runCli(['balances', '--profile', 'p'], {
      env: { ...env(), PAYGATE_BASE_URL: server.baseUrl },
    });
    expect(viaEnv.code).toBe(0);
    expect(server.requests.length).toBe(before[0]! + 1);
    expect(lastKey(server)).toBe(KEY_STAGING);

    const viaFlag = await runCli(['balances', '--base-url', other.baseUrl], {
      env: { ...env(), PAYGATE_BASE_URL: server.baseUrl, PAYGATE_PROFILE: 'p' },
    });
    expect(viaFlag.code).toBe(0);
    expect(other.requests.length).toBe(before[1]! + 1);
    expect(server.requests.length).toBe(before[0]! + 1);
  });

  it('admin token: profile, then env over profile, then flag over env; sent as X-Admin-Token only', async () => {
    cfg = tempConfig();
    const clock = await fakeServer(() => ({
      status: 200,
      body: { now: '2026-01-01T00:00:00.000Z', frozen: false, pending_timers: 0 },
    }));
    try {
      const set = await runCli(['config', 'set', 'admin-token', ADMIN_PROFILE], { env: env() });
      expect(set.code).toBe(0);
      expect(set.stderr).toContain('****5555');
      expect(JSON.parse(readFileSync(cfg.path, 'utf8')).profiles.default.admin_token).toBe(ADMIN_PROFILE);
      await runCli(['config', 'set', 'base-url', clock.baseUrl], { env: env() });
      const lastToken = () => clock.requests.at(-1)?.headers['x-admin-token'];

      expect((await runCli(['sandbox', 'time'], { env: env() })).code).toBe(0);
      expect(lastToken()).toBe(ADMIN_PROFILE);
      expect(clock.requests.at(-1)?.headers['x-api-key']).toBeUndefined();

      expect((await runCli(['sandbox', 'time'], { env: { ...env(), PAYGATE_ADMIN_TOKEN: ADMIN_ENV } })).code).toBe(0);
      expect(lastToken()).toBe(ADMIN_ENV);

      expect(
        (
          await runCli(['sandbox', 'time', '--admin-token', ADMIN_FLAG], {
            env: { ...env(), PAYGATE_ADMIN_TOKEN: ADMIN_ENV },
          })
        ).code,
      ).toBe(0);
      expect(lastToken()).toBe(ADMIN_FLAG);

      // A usage error from commander while a token is on the command line still masks it.
      const typo = await runCli(['sandbox', 'tme', '--admin-token', ADMIN_FLAG], { env: env() });
      expect(typo.code).toBe(2);
      expect((await runCli(['config', 'get', 'admin-token'], { env: env() })).stdout.trim()).toBe('****5555');
    } finally {
      await clock.close();
    }
  });

  it('a profile named by --profile that does not exist is a usage error', async () => {
    cfg = tempConfig();
    const r = await runCli(['balances', '--profile', 'ghost'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile "ghost" is not defined');
  });

  it('no API key anywhere is a usage error naming where to put one', async () => {
    cfg = tempConfig();
    const r = await runCli(['balances', '--base-url', server.baseUrl], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--api-key');
    expect(r.stderr).toContain('PAYGATE_API_KEY');
  });

  it('balances with only an admin token points at --all-shops', async () => {
    cfg = tempConfig();
    const r = await runCli(['balances', '--base-url', server.baseUrl], {
      env: { ...env(), PAYGATE_ADMIN_TOKEN: ADMIN_ENV },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: no API key');
    expect(r.stderr).toContain('paygate balances --all-shops');
    expect(r.stderr).toContain('--api-key');
  });
});

describe('masking', () => {
  it('no full key appeared in any output of this file', () => {
    expect(transcript.length).toBeGreaterThan(10);
    const all = transcript.join('\n');
    for (const k of ALL_KEYS) expect(all).not.toContain(k);
  });
});
