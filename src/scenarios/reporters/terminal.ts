// The reporter for people: a progress spinner on a terminal (ora), one coloured line per scenario as it ends, the
// diff of each failure, and a summary with counts, time and seed. Its closing count line reads
// "scenarios: N passed, N failed, N skipped" so CI log parsers find it.
import { Chalk } from 'chalk';
import type { Scenario } from '../format.js';
import type { RunSummary, ScenarioResult } from '../results.js';
import { renderFailure } from './diff.js';
import type { Reporter, RunStart, Sink } from './reporter.js';

export interface TerminalOptions {
  /** Colour the output. Default false. */
  color?: boolean;
  /** Show a spinner with the progress (a TTY stream). Default false. */
  spinner?: boolean;
  /** Print each passing scenario too. Default true. */
  showPassed?: boolean;
}

interface Spinner {
  text: string;
  clear(): unknown;
  render(): unknown;
  stop(): unknown;
}

/** The steps a passing scenario did not run (`skip:`), each with its reason: never shown as passed. */
function skippedSteps(r: ScenarioResult, c: InstanceType<typeof Chalk>): string {
  const skipped = r.steps.filter((s) => s.status === 'skipped');
  if (skipped.length === 0) return '';
  const lines = skipped.map((s) => `\n    ${c.yellow('-')} step ${s.index + 1} ${s.label} skipped: ${s.reason ?? ''}`);
  return `${c.yellow(` (${skipped.length} step${skipped.length > 1 ? 's' : ''} skipped)`)}${lines.join('')}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export class TerminalReporter implements Reporter {
  readonly #c: InstanceType<typeof Chalk>;
  #spinner: Spinner | undefined;
  #total = 0;
  #done = 0;
  #failed = 0;

  constructor(
    private readonly sink: Sink & { isTTY?: boolean },
    private readonly opts: TerminalOptions = {},
  ) {
    this.#c = new Chalk({ level: opts.color ? 1 : 0 });
  }

  /** Start the spinner (loads ora only when asked to). */
  async start(): Promise<void> {
    if (!this.opts.spinner) return;
    const { default: ora } = await import('ora');
    this.#spinner = ora({
      text: 'starting',
      stream: this.sink as NodeJS.WritableStream,
      discardStdin: false,
    }).start() as Spinner;
  }

  onRunStart(info: RunStart): void {
    this.#total = info.total;
    const where = info.target === 'in-process' ? 'each in its own in-process sandbox' : `against ${info.target}`;
    this.#line(
      this.#c.bold(
        `Running ${info.total} scenario${info.total === 1 ? '' : 's'} ${where} (concurrency ${info.concurrency}, seed ${info.seed})`,
      ),
    );
  }

  onScenarioStart(_s: Scenario): void {
    this.#progress();
  }

  onScenarioEnd(r: ScenarioResult): void {
    this.#done++;
    const c = this.#c;
    const file = r.file ? c.dim(`  ${r.file}`) : '';
    const time = c.dim(` ${Math.round(r.durationMs)} ms`);
    if (r.status === 'failed') {
      this.#failed++;
      this.#line(`${c.red('✗')} ${c.red(r.name)}${file}${time}\n${renderFailure(r, c, '    ')}`);
    } else if (r.status === 'skipped') {
      this.#line(`${c.yellow('-')} ${r.name}${file}${c.dim(` skipped: ${r.error ?? ''}`)}`);
    } else if (this.opts.showPassed !== false) {
      this.#line(`${c.green('✓')} ${r.name}${file}${time}${skippedSteps(r, c)}`);
    }
    this.#progress();
  }

  onRunEnd(sum: RunSummary): void {
    this.#spinner?.stop();
    this.#spinner = undefined;
    const c = this.#c;
    const counts = `scenarios: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`;
    this.sink.write(`\n${sum.failed > 0 ? c.red.bold(counts) : c.green.bold(counts)}\n`);
    this.sink.write(
      c.dim(
        `time ${seconds(sum.durationMs)} · ${sum.target} · seed ${sum.seed} (--seed ${sum.seed} repeats the unique values)\n`,
      ),
    );
  }

  #progress(): void {
    if (this.#spinner)
      this.#spinner.text = `${this.#done}/${this.#total} done${this.#failed ? `, ${this.#failed} failed` : ''}`;
  }

  #line(text: string): void {
    this.#spinner?.clear();
    this.sink.write(`${text}\n`);
    this.#spinner?.render();
  }
}
