// Finding scenario files: directories are searched recursively for .yaml, .yml and .json files; a path with * or ?
// is a glob (`**` crosses directories); a file is taken as it is. A file found in a directory or by a glob is a
// scenario only when its content says so (a top-level `steps:`); the others (a `sandbox.json` saved beside them, a
// compose file) are skipped and listed, so that the caller can say which.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ScenarioUsageError } from './errors.js';

const SCENARIO_FILE = /\.(ya?ml|json)$/i;
/** JSON files that are not scenarios (the shipped JSON Schema, fixtures kept beside scenarios). */
const NOT_SCENARIO = /\.schema\.json$/i;

const TOP_LEVEL_STEPS = /^(["']?)steps\1[ \t]*:/m;

/** The scenario library that comes with the package (`paygate scenario run --bundled`). */
export const BUNDLED_SCENARIOS = fileURLToPath(new URL('../../scenarios', import.meta.url));

/**
 * Whether a file found in a directory is a scenario: a mapping with the format's `steps` list at the top. A file that
 * cannot be read or parsed is kept, so that loading it reports the problem with its line and column.
 */
export function isScenarioFile(path: string): boolean {
  let text: string;
  let value: unknown;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return true;
  }
  // The usual case without a parse: a YAML block mapping's key at column 0 is a top-level key.
  if (TOP_LEVEL_STEPS.test(text)) return true;
  try {
    value = JSON.parse(text);
  } catch {
    try {
      value = parse(text);
    } catch {
      return true;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'steps');
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : walk(p);
      return SCENARIO_FILE.test(e.name) && !NOT_SCENARIO.test(e.name) ? [p] : [];
    });
}

function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function expandGlob(pattern: string, cwd: string): string[] {
  const segments = pattern.split('/');
  const fixed: string[] = [];
  for (const s of segments) {
    if (/[*?]/.test(s)) break;
    fixed.push(s);
  }
  const root = resolve(cwd, fixed.join('/') || '.');
  const re = globRegex(resolve(cwd, pattern).split(sep).join('/'));
  let files: string[];
  try {
    files = walk(root);
  } catch {
    return [];
  }
  return files.filter((f) => re.test(f.split(sep).join('/')));
}

/** What a search found: the scenario files, and the files it looked at and left (not scenarios by their content). */
export interface Discovered {
  files: string[];
  skipped: string[];
}

function missing(p: string, cwd: string): ScenarioUsageError {
  const bundled = relative(cwd, BUNDLED_SCENARIOS) || '.';
  let hint: string | undefined;
  try {
    if (statSync(BUNDLED_SCENARIOS).isDirectory() && resolve(cwd, p) !== BUNDLED_SCENARIOS) {
      hint = `the scenario library that comes with paygate is in ${bundled}/: run it with \`paygate scenario run --bundled\` (or pass that path); \`paygate scenario new <name>\` starts one of your own`;
    }
  } catch {
    hint = undefined;
  }
  return new ScenarioUsageError(`no such file or directory: ${p}`, hint);
}

/** The scenario files named by paths, directories and globs, each once, in a stable order, and the files skipped. */
export function discoverScenarios(paths: string[], cwd = process.cwd()): Discovered {
  const out: string[] = [];
  const skipped: string[] = [];
  for (const p of paths.length > 0 ? paths : ['scenarios']) {
    let found: string[];
    let searched = true;
    if (/[*?]/.test(p)) found = expandGlob(p, cwd);
    else {
      const abs = resolve(cwd, p);
      let st;
      try {
        st = statSync(abs);
      } catch {
        throw missing(p, cwd);
      }
      searched = st.isDirectory();
      found = searched ? walk(abs) : [abs];
    }
    if (found.length === 0) throw new ScenarioUsageError(`no scenario files match ${p}`);
    const kept = searched ? found.filter(isScenarioFile) : found;
    if (kept.length === 0)
      throw new ScenarioUsageError(
        `no scenario files match ${p} (found ${found.length} file${found.length === 1 ? '' : 's'} without a top-level steps:)`,
      );
    out.push(...kept);
    skipped.push(...found.filter((f) => !kept.includes(f)));
  }
  const rel = (f: string) => relative(cwd, f) || f;
  const files = [...new Set(out)];
  return { files: files.map(rel), skipped: [...new Set(skipped)].filter((f) => !files.includes(f)).map(rel) };
}

/** The scenario files named by paths, directories and globs, each once, in a stable order. */
export function discover(paths: string[], cwd = process.cwd()): string[] {
  return discoverScenarios(paths, cwd).files;
}

/** The one line that says which files were skipped, e.g. for stderr; undefined when none was. */
export function skippedLine(skipped: string[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const n = skipped.length;
  return `skipped ${n} file${n === 1 ? '' : 's'} that ${n === 1 ? 'is not a scenario' : 'are not scenarios'} (no top-level steps:): ${skipped.join(', ')}`;
}
