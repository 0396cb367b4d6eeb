// Finding scenario files: in a directory, only files whose content is a scenario (a top-level `steps:`) are taken;
// the others (a `paygate sandbox start --json > sandbox.json`, a compose file) are skipped and listed; a file named
// on its own is taken as it is; a missing path points at the library that comes with paygate.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_SCENARIOS, discover, discoverScenarios, skippedLine } from '../../src/scenarios/discover.js';
import { ScenarioUsageError } from '../../src/scenarios/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'paygate-discover-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(join(dir, 'project', 'nested'), { recursive: true });
writeFileSync(join(dir, 'project', 'a.yaml'), 'name: a\nsteps:\n  - call: balances.list\n');
writeFileSync(join(dir, 'project', 'nested', 'b.json'), '{ "name": "b", "steps": [{ "call": "balances.list" }] }');
writeFileSync(
  join(dir, 'project', 'sandbox.json'),
  '{"base_url":"http://127.0.0.1:4080","admin_token":"pg_admin_x","keys":{"shop_a":"pg_test_a"}}\n',
);
writeFileSync(join(dir, 'project', 'compose.yml'), 'services:\n  sandbox:\n    image: paygate\n');
writeFileSync(join(dir, 'project', 'broken.yaml'), 'name: broken\nsteps: [\n');
writeFileSync(join(dir, 'project', 'flow.yml'), '{ name: flow, steps: [{ call: balances.list }] }\n');

describe('discover', () => {
  it('takes the files that are scenarios by their content, skips and lists the rest', () => {
    const found = discoverScenarios(['project'], dir);
    expect(found.files).toEqual(['project/a.yaml', 'project/broken.yaml', 'project/flow.yml', 'project/nested/b.json']);
    expect(found.skipped).toEqual(['project/compose.yml', 'project/sandbox.json']);
    expect(discover(['project/**/*.json'], dir)).toEqual(['project/nested/b.json']);
    expect(skippedLine(found.skipped)).toBe(
      'skipped 2 files that are not scenarios (no top-level steps:): project/compose.yml, project/sandbox.json',
    );
    expect(skippedLine([])).toBeUndefined();
  });

  it('a file named on its own is taken as it is (loading it then says what is wrong)', () => {
    expect(discoverScenarios(['project/sandbox.json'], dir)).toEqual({ files: ['project/sandbox.json'], skipped: [] });
  });

  it('a missing path (scenarios/ by default) hints at the library that comes with paygate and --bundled', () => {
    let error: unknown;
    try {
      discover([], join(dir, 'project'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioUsageError);
    expect((error as ScenarioUsageError).message).toBe('no such file or directory: scenarios');
    expect((error as ScenarioUsageError).hint).toContain(
      `the scenario library that comes with paygate is in ${relative(join(dir, 'project'), BUNDLED_SCENARIOS)}/`,
    );
    expect((error as ScenarioUsageError).hint).toContain('`paygate scenario run --bundled`');
  });
});
