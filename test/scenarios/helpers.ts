// Running inline scenarios in tests: YAML text in, the scenario's result out.
import { parseScenario } from '../../src/scenarios/load.js';
import type { ScenarioResult, StepResult } from '../../src/scenarios/results.js';
import { runOneScenario, type ScenarioRunOptions } from '../../src/scenarios/run-scenario.js';

/** Run YAML as if it were the file scenarios/<name> (receipt paths resolve against scenarios/). */
export function runYaml(text: string, opts: ScenarioRunOptions = {}, name = 'inline.yaml'): Promise<ScenarioResult> {
  return runOneScenario(parseScenario(text, `scenarios/${name}`), opts);
}

/** The failed step's mismatches as `what: expected / actual` lines. */
export function mismatchesOf(r: ScenarioResult): string[] {
  const failed: StepResult | undefined = r.steps.find((s) => s.status === 'failed');
  return (failed?.mismatches ?? []).map(
    (m) => `${m.what}: ${JSON.stringify(m.expected)} / ${JSON.stringify(m.actual)}`,
  );
}

export const CREATE = (moid = '${{ unique.order }}', extra = '') => `
  - id: create
    call: payment.create
    with:
      merchant_operation_id: ${moid}
      client_id: alice${extra}
      method: WT_RUB_C2C
      amount: "1500.00"
      currency: RUB`;
