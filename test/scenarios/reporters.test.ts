// The three reporters and the exit code, on a run of one passing and one failing scenario.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenarios/load.js';
import {
  exitCodeOf,
  JsonReporter,
  JunitReporter,
  runReported,
  TerminalReporter,
} from '../../src/scenarios/reporters/index.js';
import type { RunSummary } from '../../src/scenarios/results.js';

const PASS = parseScenario(
  `name: balances are readable
steps:
  - call: balances.list
    expect: { body: { balances: { length: 2 } } }
`,
  'scenarios/pass.yaml',
);
const FAIL = parseScenario(
  `name: a payment is said to be completed at once
steps:
  - id: create
    call: payment.create
    with: { merchant_operation_id: m1, client_id: alice, method: WT_RUB_C2C, amount: "1500.00", currency: RUB }
    expect:
      body: { status: completed }
  - call: balances.list
`,
  'scenarios/fail.yaml',
);

const dir = mkdtempSync(join(tmpdir(), 'paygate-reporters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let summary: RunSummary;
const jsonOut: string[] = [];
const termOut: string[] = [];
const xmlPath = join(dir, 'nested', 'report.xml');
beforeAll(async () => {
  const reporters = [
    new JsonReporter({ write: (s: string) => jsonOut.push(s) }),
    new TerminalReporter({ write: (s: string) => termOut.push(s) }),
    new JunitReporter(xmlPath),
  ];
  summary = await runReported([PASS, FAIL], { seed: 42, concurrency: 2 }, reporters);
});

describe('reporters', () => {
  it('exit code 1 when a scenario failed, 0 when none did', () => {
    expect(summary).toMatchObject({ passed: 1, failed: 1, skipped: 0, seed: 42 });
    expect(exitCodeOf(summary)).toBe(1);
    expect(exitCodeOf({ ...summary, failed: 0 })).toBe(0);
  });

  it('json: one line per step, per scenario, and a summary', () => {
    const lines = jsonOut
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.type).filter((t) => t === 'step')).toHaveLength(2); // the failed scenario's second step never ran
    const scenarios = lines.filter((l) => l.type === 'scenario');
    expect(scenarios.map((s) => [s.name, s.status]).sort()).toEqual([
      ['a payment is said to be completed at once', 'failed'],
      ['balances are readable', 'passed'],
    ]);
    const failed = scenarios.find((s) => s.status === 'failed') as {
      steps: { status: string; mismatches: unknown[] }[];
    };
    expect(failed.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
    expect(failed.steps[0]!.mismatches).toEqual([{ what: 'body.status', expected: 'completed', actual: 'pending' }]);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', passed: 1, failed: 1, seed: 42, target: 'in-process' });
  });

  it('junit: one testcase per scenario, steps in system-out, a failure naming the step with the diff', () => {
    const xml = readFileSync(xmlPath, 'utf8');
    expect(xml).toMatch(/<testsuite [^>]*tests="2"[^>]*failures="1"/);
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).toContain('classname="scenarios/fail.yaml" name="a payment is said to be completed at once"');
    expect(xml).toMatch(
      /<failure message="step 1 payment.create \[create\] \(scenarios\/fail.yaml:3\): body.status" type="expectation">/,
    );
    expect(xml).toContain('- body.status: "completed"');
    expect(xml).toContain('+ body.status: "pending"');
    expect(xml).toMatch(/<system-out><!\[CDATA\[passed  step 1 balances.list — GET \/v1\/balances → 200/);
    expect(xml).toContain('<property name="seed" value="42"/>');
  });

  it('junit: every time attribute is in seconds rounded to the millisecond', () => {
    const times = [...readFileSync(xmlPath, 'utf8').matchAll(/ time="([^"]*)"/g)].map((m) => m[1]);
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (const t of times) expect(t).toMatch(/^\d+(\.\d{1,3})?$/);
  });

  it('terminal: a line per scenario, the failure as a diff with the request, and the summary', () => {
    const text = termOut.join('');
    expect(text).toContain('Running 2 scenarios each in its own in-process sandbox (concurrency 2, seed 42)');
    expect(text).toMatch(/✓ balances are readable {2}scenarios\/pass.yaml \d+ ms/);
    expect(text).toContain('✗ a payment is said to be completed at once  scenarios/fail.yaml');
    expect(text).toContain('step 1 payment.create [create] (scenarios/fail.yaml:3)');
    expect(text).toContain('POST /v1/payment {"merchant_operation_id":"m1"');
    expect(text).toContain('- body.status: "completed"\n');
    expect(text).toContain('+ body.status: "pending"\n');
    expect(text).toContain('- expected  + actual\n');
    expect(text).toMatch(/answer 200 \{"operation_id":/);
    expect(text).not.toContain('\x1b[');
    expect(text).toMatch(/\nscenarios: 1 passed, 1 failed, 0 skipped\ntime \d+\.\d\d s · in-process · seed 42/);
  });

  it('terminal with colour: expected in green, actual in red, as vitest and jest show them', () => {
    const out: string[] = [];
    const t = new TerminalReporter({ write: (x: string) => out.push(x) }, { color: true });
    t.onScenarioEnd(summary.results.find((r) => r.status === 'failed')!);
    const text = out.join('');
    const green = (x: string) => `\x1b[32m${x}\x1b[39m`;
    const red = (x: string) => `\x1b[31m${x}\x1b[39m`;
    expect(text).toContain(`${green('- expected')}  ${red('+ actual')}`);
    expect(text).toContain(green('- body.status: "completed"'));
    expect(text).toContain(red('+ body.status: "pending"'));
  });
});
