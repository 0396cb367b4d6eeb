// `paygate openapi` prints the OpenAPI 3.1 document; `paygate sandbox start` failures exit 5.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempConfig } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const cfg = tempConfig();
afterAll(() => cfg.cleanup());

describe('paygate openapi', () => {
  it('prints valid JSON, OpenAPI 3.1.0, 2-space indented, with the gateway paths', async () => {
    const r = await runCli(['openapi'], { env: { PAYGATE_CONFIG: cfg.path } });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { openapi: string; paths: Record<string, unknown>; info: { version: string } };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/payment', '/v1/payout', '/v1/balances', '/readyz']),
    );
    expect(r.stdout).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('prints exactly the bytes of docs/openapi.json (the built CLI, whose bundle loads the contract in another order)', async () => {
    const r = await runCli(['openapi'], { env: { PAYGATE_CONFIG: cfg.path } });
    expect(r.code).toBe(0);
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url));
    expect(Buffer.from(r.stdout, 'utf8').equals(committed), 'run `npm run docs` after changing the contract').toBe(
      true,
    );
  });
});

describe('paygate sandbox start', () => {
  it('exits 5 when the sandbox cannot start', async () => {
    const r = await runCli(
      ['sandbox', 'start', '--port', '0', '--in-memory', '--fixtures', `${cfg.dir}/missing.json`],
      {
        env: { PAYGATE_CONFIG: cfg.path },
      },
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('error:');
  });
});
