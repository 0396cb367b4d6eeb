// `sandbox start --store postgres://…` that cannot reach its database: exit 5, the URL without its password, a hint.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));

it('an unreachable database is exit 5 with the URL (password hidden) and what to check', () => {
  const r = spawnSync(
    process.execPath,
    [BIN, 'sandbox', 'start', '--store', 'postgres://nobody:s3cret@127.0.0.1:1/x', '--port', '0'],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 },
  );
  expect(r.status).toBe(5);
  expect(r.stderr).toMatch(
    /cannot use the PostgreSQL store postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/x: connect ECONNREFUSED/,
  );
  expect(r.stderr).toMatch(/hint: check the URL/);
  expect(r.stderr).not.toContain('s3cret');
});
