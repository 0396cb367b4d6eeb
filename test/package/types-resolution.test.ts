// Every entry of the packed tarball resolves to its types under each of TypeScript's module
// resolutions — node10 (`moduleResolution: node`, which reads no `exports`: the `typesVersions` fallback), node16 from
// ESM and from CJS, and bundler — as @arethetypeswrong/cli (attw) checks them on the tarball `npm pack` makes.
// The package is ESM only: attw's one remark, that a CommonJS importer under node16 may only import() it
// (cjs-resolves-to-esm), is ignored by name — Node ≥ 20.19 (the package's engines) require()s ES modules, and the
// types resolve there too. Nothing else may be reported.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, packOnce, type Packed } from './install.js';

const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
const RESOLUTIONS = ['node10', 'node16-cjs', 'node16-esm', 'bundler'];

interface Pkg {
  exports: Record<string, string | { types: string; default: string }>;
  typesVersions?: Record<string, Record<string, string[]>>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Pkg;
/** Each subpath export with types, e.g. `./client` → `./dist/client/index.d.ts`. */
const TYPED = Object.entries(pkg.exports).flatMap(([k, v]) => (typeof v === 'object' ? [[k, v.types] as const] : []));

interface Attw {
  analysis: {
    entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }>;
    problems: { kind: string; entrypoint: string; resolutionKind: string }[];
  };
}

let dir: string;
let packed: Packed;

/** attw on the tarball. Its output goes to a file: it exits before a pipe has taken all of a long report. */
function attw(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const out = join(dir, 'attw.out');
  const fd = openSync(out, 'w');
  try {
    const r = spawnSync(process.execPath, [ATTW, packed.tarball, ...args], {
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { status: r.status, stdout: readFileSync(out, 'utf8'), stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-attw-'));
  packed = await packOnce(dir);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the types of every entry, under every module resolution (attw on the packed tarball)', () => {
  it('typesVersions maps every subpath export to the types its exports entry names (the node10 fallback)', () => {
    const map = pkg.typesVersions?.['*'] ?? {};
    for (const [subpath, types] of TYPED) {
      if (subpath === '.') continue;
      expect([subpath, map[subpath.slice(2)]]).toEqual([subpath, [types]]);
    }
    expect(Object.keys(map).sort()).toEqual(
      TYPED.filter(([s]) => s !== '.')
        .map(([s]) => s.slice(2))
        .sort(),
    );
  });

  it('each entry resolves under node10, node16 (CJS and ESM) and bundler to its own .d.ts; attw passes', () => {
    const json = attw('--format', 'json');
    const report = JSON.parse(json.stdout) as Attw;
    for (const [subpath, types] of TYPED) {
      const entry = report.analysis.entrypoints[subpath];
      const expected = `/node_modules/paygate/${types.slice(2)}`;
      for (const kind of RESOLUTIONS)
        expect([subpath, kind, entry?.resolutions[kind]?.resolution?.fileName]).toEqual([subpath, kind, expected]);
    }
    // The only remark: an ES module reached from CommonJS (node16-cjs), for every entry, and nothing else.
    expect(
      report.analysis.problems.filter((p) => !(p.kind === 'CJSResolvesToESM' && p.resolutionKind === 'node16-cjs')),
    ).toEqual([]);
    const strict = attw('--ignore-rules', 'cjs-resolves-to-esm', '--format', 'ascii');
    expect(strict.status, strict.stdout + strict.stderr).toBe(0);
  }, 120_000);
});
