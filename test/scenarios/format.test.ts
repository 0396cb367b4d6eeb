// The scenario file format: what validates, every kind of error with its file, line and column, the static
// reference checks, and the JSON Schema shipped in docs/ being the one generated from the zod schemas.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints.js';
import { sandboxControls } from '../../src/contract/controls.js';
import { ScenarioFileError } from '../../src/scenarios/errors.js';
import { CALL_STEPS } from '../../src/scenarios/format.js';
import { buildScenarioJsonSchema } from '../../src/scenarios/json-schema.js';
import { parseScenario, scenarioFromObject } from '../../src/scenarios/load.js';

function issuesOf(text: string): { line: number; column: number; path: string; message: string }[] {
  try {
    parseScenario(text, 'x.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioFileError);
    return (e as ScenarioFileError).issues;
  }
  throw new Error('expected the scenario to be invalid');
}

const OK = `name: ok
steps:
  - id: create
    call: payment.create
    with:
      merchant_operation_id: \${{ unique.order }}
      amount: "1500.00"
  - call: operations.pay
    with:
      id: \${{ steps.create.operation_id }}
`;

describe('scenario format', () => {
  it('parses a valid file with its defaults and the line of each step', () => {
    const s = parseScenario(OK, 'x.yaml');
    expect(s).toMatchObject({
      name: 'ok',
      fixtures: 'default',
      clock: 'frozen',
      startTime: '2026-03-01T12:00:00.000Z',
      tags: [],
      file: 'x.yaml',
    });
    expect(s.steps.map((st) => [st.kind, st.line])).toEqual([
      ['call', 3],
      ['call', 8],
    ]);
  });

  it('accepts JSON, a subset of YAML', () => {
    const s = parseScenario(
      JSON.stringify({ name: 'j', clock: 'real', steps: [{ call: 'balances.list', expect: { status: 200 } }] }),
      'x.json',
    );
    expect(s.clock).toBe('real');
    expect(s.steps[0]).toMatchObject({ kind: 'call', call: 'balances.list', expect: { status: 200 } });
  });

  it('a YAML syntax error names its line and column', () => {
    const issues = issuesOf('name: x\nsteps:\n  - call: balances.list\n    with: { a: 1\n');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ line: 5, column: 1 });
  });

  it('an unknown endpoint id is pointed at, with suggestions', () => {
    const [issue] = issuesOf('name: x\nsteps:\n  - call: payment.craete\n');
    expect(issue).toMatchObject({ line: 3, column: 11, path: 'steps[0].call' });
    expect(issue!.message).toContain('did you mean payment.create');
  });

  it('an unknown key is pointed at by its own position', () => {
    const [issue] = issuesOf('name: x\nsteps:\n  - call: balances.list\n    expect:\n      staus: 200\n');
    expect(issue).toMatchObject({
      line: 5,
      column: 7,
      path: 'steps[0].expect.staus',
      message: 'unknown field "staus"',
    });
  });

  it('a value of the wrong type names the field', () => {
    const [issue] = issuesOf('name: x\nsteps:\n  - call: balances.list\n    expect:\n      status: "200"\n');
    expect(issue).toMatchObject({ line: 5, column: 15, path: 'steps[0].expect.status' });
  });

  it('a missing name, no steps, a step of no or several kinds', () => {
    expect(issuesOf('steps: []\n').map((i) => i.path)).toEqual(['name', 'steps']);
    expect(issuesOf('name: x\nsteps:\n  - expect: {}\n')[0]!.message).toBe(
      'a step needs one of call, wait_for, await or receiver',
    );
    expect(issuesOf('name: x\nsteps:\n  - call: balances.list\n    receiver: up\n')[0]!.message).toBe(
      'a step has one of call, receiver, not several',
    );
  });

  it('a bad wait_for timeout and a bad clock', () => {
    expect(issuesOf('name: x\nsteps:\n  - wait_for: { status: completed, timeout: soon }\n')[0]!.path).toBe(
      'steps[0].wait_for.timeout',
    );
    expect(issuesOf('name: x\nclock: slow\nsteps:\n  - call: balances.list\n')[0]).toMatchObject({
      line: 2,
      column: 8,
      path: 'clock',
    });
  });

  it('statuses are checked against the operation statuses, with the closest one suggested', () => {
    const [wait] = issuesOf('name: x\nsteps:\n  - call: balances.list\n  - wait_for: { status: complete }\n');
    expect(wait).toMatchObject({ line: 4, column: 25, path: 'steps[1].wait_for.status' });
    expect(wait!.message).toBe(
      'unknown operation status "complete" (did you mean completed?); an operation is pending, awaiting_confirmation, manual_check, completed, cancelled, rejected',
    );
    const list = issuesOf(
      'name: x\nsteps:\n  - call: balances.list\n  - wait_for: { status: [completed, canceled] }\n',
    );
    expect(list.map((i) => i.path)).toEqual(['steps[1].wait_for.status[1]']);
    expect(list[0]!.message).toContain('unknown operation status "canceled" (did you mean cancelled?)');
    const expects = issuesOf(
      'name: x\nsteps:\n  - call: balances.list\n    expect: { operation_status: paid, operation: { status: manualcheck } }\n',
    );
    expect(expects.map((i) => i.path)).toEqual([
      'steps[0].expect.operation_status',
      'steps[0].expect.operation.status',
    ]);
    expect(expects[1]!.message).toContain('did you mean manual_check?');
    expect(() =>
      parseScenario(
        'name: x\nsteps:\n  - call: balances.list\n  - wait_for: { status: [completed, rejected] }\n',
        'x.yaml',
      ),
    ).not.toThrow();
  });

  it('references must name an earlier step, a defined variable, a known root', () => {
    const later = issuesOf(
      'name: x\nsteps:\n  - call: operations.pay\n    with:\n      id: ${{ steps.b.operation_id }}\n  - id: b\n    call: balances.list\n',
    );
    expect(later[0]).toMatchObject({ line: 5, column: 11, path: 'steps[0].with.id' });
    expect(later[0]!.message).toContain('no earlier step has id "b"');
    expect(issuesOf('name: x\nsteps:\n  - call: balances.list\n    name: ${{ vars.nope }}\n')[0]!.message).toContain(
      'no variable "nope"',
    );
    expect(issuesOf('name: x\nsteps:\n  - call: balances.list\n    name: ${{ env.HOME }}\n')[0]!.message).toContain(
      'unknown root "env"',
    );
    expect(issuesOf('name: x\nsteps:\n  - call: balances.list\n    name: "${{ vars.a"\n')[0]!.message).toContain(
      'unclosed',
    );
  });

  it('await names an earlier background step; background steps have ids; ids are unique', () => {
    expect(issuesOf('name: x\nsteps:\n  - id: a\n    call: balances.list\n  - await: a\n')[0]!.message).toContain(
      'background: true',
    );
    expect(issuesOf('name: x\nsteps:\n  - call: balances.list\n    background: true\n')[0]!.path).toBe(
      'steps[0].background',
    );
    expect(
      issuesOf('name: x\nsteps:\n  - id: a\n    call: balances.list\n  - id: a\n    call: balances.list\n')[0],
    ).toMatchObject({ line: 5, path: 'steps[1].id' });
  });

  it('a scenario given as an object is validated the same way', () => {
    expect(() => scenarioFromObject({ name: 'o', steps: [{ call: 'nope' }] })).toThrow(/unknown endpoint id "nope"/);
    expect(scenarioFromObject({ name: 'o', steps: [{ call: 'health.livez' }] }).steps).toHaveLength(1);
  });

  it('every row of both endpoint tables is a step (but the never-ending streams), with its request fields', () => {
    const names = [
      ...Object.values(endpoints).map((e) => e.id),
      ...Object.entries(sandboxControls)
        .filter(([, c]) => !('stream' in c))
        .map(([k]) => k),
    ];
    expect(CALL_STEPS.has('operations.stream')).toBe(false);
    expect([...CALL_STEPS.keys()].sort()).toEqual([...names].sort());
    const schema = buildScenarioJsonSchema() as {
      $defs: { ScenarioStep: { anyOf: { properties: { call?: { const: string }; with?: { properties: object } } }[] } };
    };
    const pay = schema.$defs.ScenarioStep.anyOf.find((s) => s.properties.call?.const === 'operations.pay');
    expect(Object.keys(pay!.properties.with!.properties)).toEqual(['id', 'merchant_operation_id', 'amount']);
  });

  it('docs/scenario.schema.json is the generated JSON Schema (run `npm run docs`)', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../docs/scenario.schema.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual(buildScenarioJsonSchema());
  });
});

describe('docs/scenarios.md', () => {
  it('lists every step id (run `npm run docs`)', async () => {
    const { renderVocabulary } = await import('../../src/scenarios/vocabulary.js');
    const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8');
    const m = /<!-- scenario-steps:begin -->\n([\s\S]*?)<!-- scenario-steps:end -->/.exec(doc);
    expect(m?.[1]).toBe(`${renderVocabulary()}\n`);
  });
});
