// The house's structural rules, checked on every run: no file in src/ over 400 lines, no function over 80 lines,
// no /sandbox path outside the contract, no literal HTTP status in the emulator's handlers, and the domain imports
// no framework.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const sources = files(SRC).map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

/** Every function-like node with its name and length in lines. */
function functionsOf(path: string, text: string): { name: string; lines: number }[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const out: { name: string; lines: number }[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const start = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      const name = (n as ts.FunctionLikeDeclaration).name?.getText(sf) ?? `<anonymous at line ${start + 1}>`;
      out.push({ name, lines: end - start + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('structure', () => {
  // Measured on formatted code: `npm test` runs `npm run format:check` before vitest.
  // TEMPORARY (issue 26): the files that grew past the limit when prettier first formatted the tree; each is being
  // split by meaning, and this list must be empty before the issue is resolved.
  const SPLITTING = new Set<string>([]);
  it('no file in src/ is over 400 lines', () => {
    const long = sources
      .map((s) => ({ path: s.path, lines: s.text.split('\n').length }))
      .filter((s) => s.lines > 400 && !SPLITTING.has(s.path));
    expect(long).toEqual([]);
  });

  it('no prettier-ignore anywhere in src/ (a limit is met by splitting, not by hiding lines from the formatter)', () => {
    expect(sources.filter((s) => s.text.includes('prettier-' + 'ignore')).map((s) => s.path)).toEqual([]);
  });

  // TEMPORARY (issue 26), as SPLITTING above: functions the formatter took past 80 lines.
  const SPLITTING_FUNCTIONS = new Set<string>([]);
  it('no function in src/ is over 80 lines', () => {
    const long = sources.flatMap((s) =>
      functionsOf(s.path, s.text)
        .filter((f) => f.lines > 80 && !SPLITTING_FUNCTIONS.has(`${s.path}: ${f.name}`))
        .map((f) => `${s.path}: ${f.name} (${f.lines} lines)`),
    );
    expect(long).toEqual([]);
    // Parsing every source file takes about a second alone, several on a loaded machine.
  }, 30_000);

  it('no /sandbox path literal outside src/contract', () => {
    const found = sources
      .filter((s) => !s.path.startsWith('src/contract/'))
      .flatMap((s) => s.text.split('\n').map((l, i) => ({ l, at: `${s.path}:${i + 1}` })))
      .filter(({ l }) => /['"`]\/sandbox\//.test(l) && !/^\s*(\/\/|\/?\*)/.test(l))
      .map(({ at }) => at);
    expect(found).toEqual([]);
  });

  it('no literal HTTP status in the emulator handlers (the error table and the endpoint table own them)', () => {
    const found = sources
      .filter((s) => s.path.startsWith('src/emulator/routes/'))
      .flatMap((s) => s.text.split('\n').map((l, i) => ({ l, at: `${s.path}:${i + 1}` })))
      .filter(({ l }) => /\b(status|statusCode)\s*[:=]\s*[1-5]\d\d\b|new ApiError\(\s*[1-5]\d\d/.test(l))
      .map(({ at }) => at);
    expect(found).toEqual([]);
  });

  it('the domain imports no framework, no file system and no network', () => {
    const bad = sources
      .filter((s) => s.path.startsWith('src/domain/'))
      .flatMap((s) => [...s.text.matchAll(/from '([^']+)'/g)].map((m) => ({ path: s.path, mod: m[1]! })))
      .filter(({ mod }) => /^(h3|zod|undici|lowdb|node:fs|node:http|node:net|commander)/.test(mod));
    expect(bad).toEqual([]);
  });
});
