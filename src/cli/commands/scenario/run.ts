// `paygate scenario list`, `validate` and `new` (flags: define.ts). `run` is in run-files.ts. Files
// found in directories that are not scenarios are skipped with one line on stderr (and `skipped_files` in --json).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { ScenarioNewOptions, ScenarioPathsOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';

/** Library errors as the CLI's: an invalid file or misuse is 2, an unreachable target 3. */
export async function asCliError(e: unknown): Promise<unknown> {
  const { ScenarioFilesError, ScenarioFileError, ScenarioUsageError, TargetUnreachableError } =
    await import('../../../scenarios/errors.js');
  if (e instanceof ScenarioFilesError || e instanceof ScenarioFileError)
    return new UsageError(`invalid scenario file:\n${e.message}`, 'the format is described in docs/scenarios.md');
  if (e instanceof ScenarioUsageError) return new UsageError(e.message, e.hint);
  if (e instanceof TargetUnreachableError)
    return new CliError(
      e.message,
      EXIT.CONNECTION,
      'start one with `paygate sandbox start`, or drop --base-url to run each scenario in process',
      'connection_failed',
    );
  return e;
}

/** The files a command works on: its paths, or with --bundled the library that comes with paygate; the skipped ones said on stderr. */
export async function findScenarioFiles(
  options: { paths: string[]; bundled: boolean },
  deps: CommandDeps,
): Promise<{ files: string[]; skipped: string[] }> {
  if (options.bundled && options.paths.length > 0)
    throw new UsageError('--bundled takes the library that comes with paygate: give it no paths as well');
  const { discoverScenarios, skippedLine, BUNDLED_SCENARIOS } = await import('../../../scenarios/discover.js');
  try {
    const found = discoverScenarios(
      options.bundled ? [relative(process.cwd(), BUNDLED_SCENARIOS) || '.'] : options.paths,
    );
    const line = skippedLine(found.skipped);
    if (line) deps.output.note(line);
    return found;
  } catch (e) {
    throw await asCliError(e);
  }
}

export async function list(options: ScenarioPathsOptions, deps: CommandDeps): Promise<void> {
  const found = await findScenarioFiles(options, deps);
  const { loadAll } = await import('../../../scenarios/index.js');
  try {
    const scenarios = await loadAll(found.files);
    if (options.json) {
      deps.output.json({
        scenarios: scenarios.map((s) => ({ file: s.file, name: s.name, steps: s.steps.length, tags: s.tags })),
        skipped_files: found.skipped,
      });
      return;
    }
    const width = Math.max(...scenarios.map((s) => (s.file ?? '').length));
    for (const s of scenarios)
      deps.output.print(`${(s.file ?? '').padEnd(width)}  ${String(s.steps.length).padStart(3)} steps  ${s.name}`);
    deps.output.note(`${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}`);
  } catch (e) {
    throw await asCliError(e);
  }
}

export async function validate(options: ScenarioPathsOptions, deps: CommandDeps): Promise<void> {
  const { files, skipped } = await findScenarioFiles(options, deps);
  const { loadScenarioFile, ScenarioFileError } = await import('../../../scenarios/index.js');
  const problems: { file: string; line: number; column: number; path: string; message: string }[] = [];
  for (const f of files) {
    try {
      await loadScenarioFile(f);
    } catch (e) {
      if (!(e instanceof ScenarioFileError)) throw e;
      problems.push(...e.issues.map((i) => ({ file: f, ...i })));
    }
  }
  if (options.json)
    deps.output.json({ files: files.length, valid: problems.length === 0, problems, skipped_files: skipped });
  else
    for (const p of problems)
      deps.output.print(`${p.file}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
  const bad = new Set(problems.map((p) => p.file)).size;
  if (bad > 0) throw new UsageError(`${bad} of ${files.length} scenario file${files.length === 1 ? '' : 's'} invalid`);
  if (!options.json) deps.output.note(`${files.length} scenario file${files.length === 1 ? '' : 's'} valid`);
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'scenario';

export async function create(options: ScenarioNewOptions, deps: CommandDeps): Promise<void> {
  const file = options.output ?? `scenarios/${slug(options.name)}.yaml`;
  if (existsSync(file) && !options.force)
    throw new UsageError(`${file} exists`, 'pass --force to overwrite it, or --output another file');
  const { starterScenario } = await import('./starter.js');
  const schema = relative(dirname(file), 'node_modules/paygate/docs/scenario.schema.json');
  const local = existsSync('docs/scenario.schema.json') ? relative(dirname(file), 'docs/scenario.schema.json') : schema;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, starterScenario(options.name, local));
  deps.output.print(file);
  deps.output.note(`wrote ${file}; run it with \`paygate scenario run ${file}\``);
}
