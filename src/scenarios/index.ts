// The scenario runner's public surface: load and validate files, run one or many, and the result types the
// reporters and `paygate/testing` use.
export { parseScenario, scenarioFromObject, loadScenarioFile } from './load.js';
export {
  discover,
  discoverScenarios,
  isScenarioFile,
  skippedLine,
  BUNDLED_SCENARIOS,
  type Discovered,
} from './discover.js';
export { runScenarios, runPaths, loadAll, filterScenarios, type RunOptions } from './run.js';
export { runOneScenario, type ScenarioRunOptions } from './run-scenario.js';
export type { RemoteOptions } from './target.js';
export type { Scenario, ScenarioStep, Expect, Matcher } from './format.js';
export type { ScenarioResult, StepResult, RunSummary, ScenarioStatus, StepStatus } from './results.js';
export type { Mismatch } from './expectations.js';
export {
  ScenarioFileError,
  ScenarioFilesError,
  ScenarioUsageError,
  TargetUnreachableError,
  type FileIssue,
} from './errors.js';
export { VOCABULARY, callableOf, type Callable } from './vocabulary.js';
