// The vitest projects: the suites that need a browser, a PostgreSQL cluster or a tmpfs mount are each in a project
// of their own (vitest.config.ts `SEPARATE`), so `npx vitest run --project paygate` runs everything else and none
// of them; every test file is in exactly one project.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEPARATE } from '../../vitest.config.js';

const ROOT = new URL('../../', import.meta.url).pathname;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}
const SELF = 'test/architecture/projects.test.ts';
const tests = walk(join(ROOT, 'test'))
  .map((f) => relative(ROOT, f))
  .filter((t) => t !== SELF);

/** The glob forms vitest.config.ts uses: `**\/` for any folders, `*` within a name. */
function matches(glob: string, path: string): boolean {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '(?:.*/)?');
  return new RegExp(`^${re}$`).test(path);
}
const projectOf = (path: string) =>
  Object.entries(SEPARATE)
    .filter(([, globs]) => globs.some((g) => matches(g, path)))
    .map(([name]) => name);

/** What each separate project's suites need, as their source shows it. */
const NEEDS: Record<keyof typeof SEPARATE, RegExp> = {
  browser: /from '\.\/browser\.js'|playwright/,
  postgres: /\buseCluster\(/,
  'full-disk': /\bmountTmpfs\(/,
};

describe('vitest projects', () => {
  it('each suite that needs a browser, PostgreSQL or a tmpfs is in that project, and no other suite is', () => {
    const wrong = tests.flatMap((t) => {
      const text = readFileSync(join(ROOT, t), 'utf8');
      const needs = Object.entries(NEEDS)
        .filter(([, re]) => re.test(text))
        .map(([name]) => name);
      const ins = projectOf(t);
      return needs.length === 0 && ins.length === 0
        ? []
        : needs.some((n) => ins.includes(n)) && ins.length === 1
          ? []
          : [`${t}: needs [${needs}] but is in [${ins}]`];
    });
    expect(wrong.filter((w) => !w.startsWith('test/postgres/'))).toEqual([]);
  });

  it('the postgres project holds test/postgres/ whole, and each project has suites', () => {
    expect(tests.filter((t) => t.startsWith('test/postgres/') && projectOf(t).join() !== 'postgres')).toEqual([]);
    for (const [name, globs] of Object.entries(SEPARATE))
      expect(tests.filter((t) => globs.some((g) => matches(g, t))).length, name).toBeGreaterThan(0);
  });
});
