// `paygate scenario run` (flags: define.ts): load and validate the files, run them in process (or against
// --base-url with the usual key and admin token), report with every reporter asked for, and exit 0, 1, 2 or 3.
import type { ReporterName, ScenarioRunOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { CheckFailedError, UsageError } from '../../errors.js';
import { asCliError, findScenarioFiles } from './run.js';

const DEFAULT_JUNIT = 'scenario-report.xml';

function parseKeys(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const m = /^([^=]+)=(.+)$/.exec(p);
    if (!m) throw new UsageError(`--key ${p}: expected <shop id>=<api key>, e.g. --key shop_b=pg_test_b_…`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

async function remoteOf(options: ScenarioRunOptions) {
  if (!options.baseUrl) {
    if (options.keys.length > 0)
      throw new UsageError("--key is for runs against --base-url; in process every shop's key is known");
    return undefined;
  }
  const { resolveConnection } = await import('../../config.js');
  const { registerSecret } = await import('../../mask.js');
  const conn = resolveConnection(options.globals);
  registerSecret(conn.apiKey);
  registerSecret(conn.adminToken);
  return {
    baseUrl: options.baseUrl,
    apiKey: conn.apiKey,
    adminToken: conn.adminToken,
    keys: parseKeys(options.keys),
    reset: options.reset,
  };
}

/**
 * The JSON Lines sink: the --output file when json is the only file-writing reporter (its directory is created;
 * written as the run goes), else stdout. With --reporter junit too, --output stays the JUnit file, as it always was.
 */
async function jsonSink(file: string | undefined): Promise<{ write(text: string): void; close(): void }> {
  if (file === undefined) return { write: (text) => process.stdout.write(text), close: () => undefined };
  const { closeSync, mkdirSync, openSync, writeSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  return { write: (text) => void writeSync(fd, text), close: () => closeSync(fd) };
}

async function reportersOf(names: ReporterName[], output: string | undefined) {
  const { JsonReporter, JunitReporter, TerminalReporter } = await import('../../../scenarios/reporters/index.js');
  const { out, err } = await import('../../colors.js');
  const unique = [...new Set(names)];
  if (output && !unique.includes('junit') && !unique.includes('json')) {
    throw new UsageError(
      '--output names the file of the junit or json reporter: add --reporter junit or --reporter json',
    );
  }
  const jsonFile = unique.includes('junit') ? undefined : output;
  const reporters = [];
  const sinks: { close(): void }[] = [];
  for (const name of unique) {
    if (name === 'json') {
      const sink = await jsonSink(jsonFile);
      sinks.push(sink);
      reporters.push(new JsonReporter(sink));
    }
    if (name === 'junit') reporters.push(new JunitReporter(output ?? DEFAULT_JUNIT));
    if (name === 'terminal') {
      // With JSON Lines on stdout, the terminal report goes to stderr.
      const toErr = unique.includes('json') && jsonFile === undefined;
      const stream = toErr ? process.stderr : process.stdout;
      const t = new TerminalReporter(stream, {
        color: (toErr ? err : out).level > 0,
        spinner: stream.isTTY === true && stream.columns > 0,
      });
      await t.start();
      reporters.push(t);
    }
  }
  return { reporters, close: () => sinks.forEach((s) => s.close()) };
}

/** Invalid files stop the run before it starts; a JUnit file asked for still gets written, with them as failures. */
async function reportInvalidFiles(e: unknown, options: ScenarioRunOptions): Promise<void> {
  if (!options.reporters.includes('junit')) return;
  const { ScenarioFilesError } = await import('../../../scenarios/errors.js');
  if (!(e instanceof ScenarioFilesError)) return;
  const { JunitReporter } = await import('../../../scenarios/reporters/index.js');
  await new JunitReporter(options.output ?? DEFAULT_JUNIT).writeInvalidFiles(e.errors);
}

export async function runScenarios(options: ScenarioRunOptions, deps: CommandDeps): Promise<void> {
  const remote = await remoteOf(options);
  const found = await findScenarioFiles(options, deps);
  const { loadAll, filterScenarios } = await import('../../../scenarios/index.js');
  const { runReported } = await import('../../../scenarios/reporters/index.js');
  let summary;
  try {
    const scenarios = filterScenarios(await loadAll(found.files), options.grep);
    if (scenarios.length === 0) throw new UsageError(`no scenario matches --grep ${JSON.stringify(options.grep)}`);
    if (remote && !remote.adminToken) {
      const { noAdminTokenWarning } = await import('../../../scenarios/admin.js');
      const warning = noAdminTokenWarning(scenarios, remote.reset);
      if (warning) deps.output.note(warning);
    }
    const { reporters, close } = await reportersOf(options.reporters, options.output);
    try {
      const opts = {
        remote,
        concurrency: options.concurrency,
        bail: options.bail,
        seed: options.seed,
        skippedFiles: found.skipped,
      };
      summary = await runReported(scenarios, opts, reporters);
    } finally {
      close();
    }
  } catch (e) {
    await reportInvalidFiles(e, options);
    throw await asCliError(e);
  }
  if (summary.failed > 0)
    throw new CheckFailedError(
      `${summary.failed} of ${summary.results.length} scenario${summary.results.length === 1 ? '' : 's'} failed`,
    );
}
