// Every repository path the docs, the README and source comments name exists, and docs/architecture.md names every
// folder of src/. A path is taken conservatively: it starts with a top-level folder of the repository and ends in a
// file extension or a slash (`src/emulator/http/errors.ts`, `test/postgres/`); globs and placeholders are not paths.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

function walk(dir: string, ends: string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), ends) : ends.some((x) => e.name.endsWith(x)) ? [join(dir, e.name)] : [],
  );
}

const PATH =
  /(?<![\w./@~-])((?:src|test|docs|scripts|fixtures|scenarios|examples|bin)\/[\w.\-/]*(?:\.[a-z]{1,5}\b|\/))(?![\w*<{-])/g;

/** Path-like tokens in a text. */
export function pathsIn(text: string): string[] {
  return [...text.matchAll(PATH)].map((m) => m[1]!).filter((p) => !p.includes('//'));
}

/** The comment lines of a TypeScript file: `//` comments and the lines of `/* … *\/` blocks. */
function commentsOf(text: string): string {
  return text
    .split('\n')
    .map((l) => (/^\s*(\/\/|\/\*|\*)/.test(l) ? l : (/\s\/\/\s(.*)$/.exec(l)?.[1] ?? '')))
    .join('\n');
}

const docs = [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'), ['.md'])].map((f) => ({
  file: f,
  text: readFileSync(f, 'utf8'),
}));
const sources = walk(join(ROOT, 'src'), ['.ts', '.md']).map((f) => {
  const text = readFileSync(f, 'utf8');
  return { file: f, text: f.endsWith('.ts') ? commentsOf(text) : text };
});

describe('paths named in prose', () => {
  it('the extraction finds paths and leaves globs and placeholders alone', () => {
    expect(pathsIn('see `src/emulator/http/errors.ts` and test/postgres/ (src/a.ts:12)')).toEqual([
      'src/emulator/http/errors.ts',
      'test/postgres/',
      'src/a.ts',
    ]);
    expect(
      pathsIn(
        'test/**/*.test.ts, examples/*/vitest.config.ts, src/cli/define/<noun>.ts, node_modules/x/src/y.ts, https://h/src/z.js',
      ),
    ).toEqual([]);
  });

  it('every path in docs/, the README and source comments exists', () => {
    const missing = [...docs, ...sources].flatMap(({ file, text }) =>
      pathsIn(text)
        .filter((p) => !existsSync(join(ROOT, p)))
        .map((p) => `${relative(ROOT, file)}: ${p}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('docs/architecture.md names every top-level folder of src/', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((d) => !new RegExp(`\\bsrc/${d}\\b`).test(page))).toEqual([]);
  });
});
