// A step marked `skip: <reason>` (a recorded exchange the sandbox cannot reproduce, issue 27 §2) is never run and
// never reported as passed: the runner reports it skipped with its reason, in the result, the terminal and JUnit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenarios/load.js';
import { JunitReporter, TerminalReporter, runReported } from '../../src/scenarios/reporters/index.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { CREATE, runYaml } from './helpers.js';

const defer = useCleanup();

const YAML = `name: a recording with steps it cannot replay
steps:${CREATE()}
  - call: operation.cancel
    with: { operation_id: "\${{ steps.create.operation_id }}" }
    skip: the upstream answered 503 (a fault of its own) that the sandbox does not reproduce
  - skip: "GET /v1/unknown: no endpoint of the contract"
  - call: operation.state
    with: { operation_id: "\${{ steps.create.operation_id }}" }
    expect: { body: { status: pending } }`;

describe('skip: a step the run does not carry out', () => {
  it('is reported skipped with its reason, not passed; the call is not sent; the steps after it run', async () => {
    const r = await runYaml(YAML);
    expect(r.status).toBe('passed');
    expect(r.steps.map((s) => s.status)).toEqual(['passed', 'skipped', 'skipped', 'passed']);
    expect(r.steps[1]!.reason).toBe(
      'the upstream answered 503 (a fault of its own) that the sandbox does not reproduce',
    );
    expect(r.steps[1]!.request).toBeUndefined();
    expect(r.steps[2]!.reason).toBe('GET /v1/unknown: no endpoint of the contract');
    // The cancel was not sent: the payment is still pending.
    expect(r.steps[3]!.response?.body).toMatchObject({ status: 'pending' });
  });

  it('is named with its reason by the terminal reporter and in the JUnit steps', async () => {
    const dir = tempDir(defer);
    const xml = join(dir, 'r.xml');
    const out: string[] = [];
    const s = parseScenario(YAML, 'scenarios/recorded.yaml');
    await runReported([s], {}, [new TerminalReporter({ write: (x: string) => out.push(x) }), new JunitReporter(xml)]);
    const text = out.join('');
    expect(text).toContain('(2 steps skipped)');
    expect(text).toContain('- step 2 operation.cancel skipped: the upstream answered 503');
    expect(text).toContain('- step 3 skipped step skipped: GET /v1/unknown: no endpoint of the contract');
    expect(readFileSync(xml, 'utf8')).toContain(
      'skipped step 3 skipped step (GET /v1/unknown: no endpoint of the contract)',
    );
  });

  it('must carry a reason; a step with neither a kind nor skip is still refused', () => {
    expect(() => parseScenario('name: x\nsteps:\n  - skip: ""\n')).toThrow(/steps\[0\]\.skip/);
    expect(() => parseScenario('name: x\nsteps:\n  - name: nothing\n')).toThrow(/a step needs one of call/);
  });
});
