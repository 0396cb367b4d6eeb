// `--reporter junit --output report.xml`: one <testsuite> for the run, one <testcase> per scenario (classname its
// file), its steps in <system-out>, and for a failed scenario a <failure> naming the step, with the diff as its body.
// A run stopped by invalid files still writes the file: one failed <testcase> per invalid file, its problems as
// file:line:column. Built with junit-report-builder.
import type { Builder } from 'junit-report-builder';
import type { ScenarioFileError } from '../errors.js';
import type { RunSummary } from '../results.js';
import { renderFailure, renderSteps, stepTitle } from './diff.js';
import type { Reporter } from './reporter.js';

/** JUnit's `time`: seconds, rounded to the millisecond (3 decimals at most). */
export const junitSeconds = (ms: number): number => Math.round(ms) / 1000;

/** The CommonJS module's `module.exports` is the builder; TypeScript types it as the ES default export. */
async function loadBuilder(): Promise<Builder> {
  const mod = (await import('junit-report-builder')) as unknown as { default: Builder | { default: Builder } };
  return 'newBuilder' in mod.default ? mod.default : mod.default.default;
}

export class JunitReporter implements Reporter {
  /** @param output the XML file to write (its directory is created). */
  constructor(private readonly output: string) {}

  async onRunEnd(sum: RunSummary): Promise<void> {
    const builder = (await loadBuilder()).newBuilder();
    const suite = builder
      .testSuite()
      .name(`paygate scenarios (${sum.target})`)
      .timestamp(new Date())
      .time(junitSeconds(sum.durationMs));
    suite.property('seed', String(sum.seed));
    for (const r of sum.results) {
      const tc = suite
        .testCase()
        .className(r.file ?? 'scenario')
        .name(r.name)
        .time(junitSeconds(r.durationMs));
      if (r.file) tc.file(r.file);
      tc.standardOutput(renderSteps(r));
      if (r.status === 'skipped') tc.skipped();
      if (r.status === 'failed') {
        const step = r.steps.find((s) => s.status === 'failed');
        const message = step
          ? `${stepTitle(step, r.file)}: ${step.error ?? step.mismatches.map((m) => m.what).join(', ')}`
          : (r.error ?? 'failed');
        tc.failure(message, step?.error ? 'error' : 'expectation').stacktrace(renderFailure(r, undefined, ''));
      }
    }
    builder.writeTo(this.output);
  }

  /** The report of a run that did not start: each invalid file as a failed testcase (`file:line:column: …`). */
  async writeInvalidFiles(errors: ScenarioFileError[]): Promise<void> {
    const builder = (await loadBuilder()).newBuilder();
    const suite = builder
      .testSuite()
      .name('paygate scenarios (invalid files: nothing ran)')
      .timestamp(new Date())
      .time(0);
    for (const e of errors) {
      const first = e.message.split('\n')[0]!;
      const more =
        e.issues.length > 1 ? ` (and ${e.issues.length - 1} more problem${e.issues.length > 2 ? 's' : ''})` : '';
      suite
        .testCase()
        .className(e.file)
        .name(`invalid scenario file ${e.file}`)
        .file(e.file)
        .time(0)
        .failure(`${first}${more}`, 'invalid')
        .stacktrace(e.message);
    }
    builder.writeTo(this.output);
  }
}
