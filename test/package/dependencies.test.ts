// Every runtime dependency is used by the shipped code (drop what nothing imports), and none of them
// brings a canvas binary (the receipt reader needs text and metadata only). Also: `@internal` in src/ is only ever a
// JSDoc tag, since tsc (`stripInternal`) drops from the published .d.ts whatever declaration's comment contains it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, dependencyClosure } from './install.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function sourceFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|js|mjs)$/.test(e.name))
    .map((e) => ({ path: join(e.parentPath, e.name), text: readFileSync(join(e.parentPath, e.name), 'utf8') }));
}
const sources = (dir: string) => sourceFiles(dir).map((f) => f.text);

describe('runtime dependencies', () => {
  it('each is imported (or resolved for a worker) by src/ or bin/', () => {
    const code = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'bin'))].join('\n');
    const unused = Object.keys(manifest.dependencies).filter((name) => {
      const spec = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      return !new RegExp(`(from |import\\(|resolve\\()'${spec}(/[^']*)?'`).test(code);
    });
    expect(unused).toEqual([]);
  });

  it('none of them, directly or through another, is pdfjs-dist or a canvas binary', () => {
    const tree = dependencyClosure(Object.keys(manifest.dependencies));
    expect(tree).toContain('unpdf');
    expect(tree.filter((n) => /^(pdfjs-dist|canvas|@napi-rs\/canvas)/.test(n))).toEqual([]);
  });
});

describe('stripInternal', () => {
  it('every "@internal" in src/ opens a JSDoc line (prose naming it would strip a public declaration)', () => {
    const stray = sourceFiles(join(ROOT, 'src')).flatMap(({ path, text }) =>
      text
        .split('\n')
        .map((line, i) => ({ line, at: `${path.slice(ROOT.length)}:${i + 1}` }))
        .filter(({ line }) => line.includes('@internal') && !/^\s*(\/\*\*|\*)\s*@internal\b/.test(line))
        .map(({ at }) => at),
    );
    expect(stray).toEqual([]);
  });
});
