// The profile file written through lowdb's file adapter: whole document, mode 0600 in a 0700 directory, no temp
// file left behind, read back unchanged.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig, writeConfig, type ConfigFile } from '../../src/cli/config.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('writeConfig (lowdb)', () => {
  it('writes the whole document 0600 in a 0700 directory and reads back the same', async () => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-config-'));
    const path = join(dir, 'paygate', 'config.json');
    const config: ConfigFile = {
      current_profile: 'staging',
      profiles: { staging: { base_url: 'http://127.0.0.1:9', api_key: 'pg_k_1234' } },
    };
    await writeConfig(path, config);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'paygate')).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(config, null, 2)}\n`);
    expect(readConfig(path)).toEqual(config);
  });

  it('a world-readable file and a stale world-readable temp file end up 0600, the temp file gone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-config-'));
    mkdirSync(join(dir, 'paygate'));
    const path = join(dir, 'paygate', 'config.json');
    const tmp = join(dir, 'paygate', '.config.json.tmp');
    writeFileSync(path, '{"profiles":{}}\n');
    writeFileSync(tmp, 'stale');
    chmodSync(path, 0o644);
    chmodSync(tmp, 0o644);
    await writeConfig(path, { profiles: { default: { api_key: 'pg_secret_9999' } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(tmp)).toBe(false);
    expect(readConfig(path).profiles.default?.api_key).toBe('pg_secret_9999');
  });
});
