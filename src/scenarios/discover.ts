// Finding scenario files: directories are searched recursively for .yaml, .yml and .json files; a path with * or ?
// is a glob (`**` crosses directories); a file is taken as it is.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ScenarioUsageError } from './errors.js';

const SCENARIO_FILE = /\.(ya?ml|json)$/i;
/** JSON files that are not scenarios (the shipped JSON Schema, fixtures kept beside scenarios). */
const NOT_SCENARIO = /\.schema\.json$/i;

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

/** The scenario files named by paths, directories and globs, each once, in a stable order. */
export function discover(paths: string[], cwd = process.cwd()): string[] {
  const out: string[] = [];
  for (const p of paths.length > 0 ? paths : ['scenarios']) {
    let found: string[];
    if (/[*?]/.test(p)) found = expandGlob(p, cwd);
    else {
      const abs = resolve(cwd, p);
      let st;
      try {
        st = statSync(abs);
      } catch {
        throw new ScenarioUsageError(`no such file or directory: ${p}`);
      }
      found = st.isDirectory() ? walk(abs) : [abs];
    }
    if (found.length === 0) throw new ScenarioUsageError(`no scenario files match ${p}`);
    out.push(...found);
  }
  return [...new Set(out)].map((f) => relative(cwd, f) || f);
}
