// docs/openapi.json passes Redocly's linter (`redocly lint`, the recommended ruleset) with no error and no warning,
// as a new user running it would see; and the same linter does flag a doctored copy (an unused component, an example
// that breaks its schema), so a clean result means something. Offline: no telemetry, no update check.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'node_modules/@redocly/cli/bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

async function lint(file: string): Promise<LintReport> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  // --format=json prints the report on stdout and exits 0 with warnings only, 1 with errors; both are read.
  const run = promisify(execFile)(process.execPath, [cli, 'lint', '--extends=recommended', '--format=json', file], {
    cwd: root,
    env,
    maxBuffer: 16 << 20,
  });
  const { stdout } = await run.catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  return JSON.parse(stdout) as LintReport;
}

describe('redocly lint (recommended rules)', () => {
  const defer = useCleanup();

  it('finds no problem in docs/openapi.json', async () => {
    const report = await lint(join(root, 'docs/openapi.json'));
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 30_000);

  it('flags an unused component and an example that breaks its schema', async () => {
    const doc = JSON.parse(readFileSync(join(root, 'docs/openapi.json'), 'utf8'));
    doc.components.schemas.Unused = { type: 'string' };
    doc.paths['/v1/payment'].post.requestBody.content['application/json'].example.amount = '0';
    const file = join(tempDir(defer), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const rules = (await lint(file)).problems.map((p) => p.ruleId).sort();
    expect(rules).toEqual(['no-invalid-media-type-examples', 'no-unused-components']);
  }, 30_000);
});
