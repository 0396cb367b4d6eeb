// `npm start`'s build (scripts/start-build.mjs, package.json "prestart"): in a copy of the checkout, the first run
// builds with esbuild what the sandbox and the CLI need, a second run with nothing changed builds nothing, and a
// changed source is built again. Also: `npm test` and `npm pack` still build with tsc, and the stamp is not packed.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './install.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  files: string[];
};

let dir: string;
const build = () => {
  const r = spawnSync(process.execPath, [join(dir, 'scripts/start-build.mjs')], { cwd: dir, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
};
const mtime = (path: string) => statSync(join(dir, path)).mtimeMs;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-start-build-'));
  for (const entry of ['bin', 'scripts', 'src', 'fixtures', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true, preserveTimestamps: true });
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'), 'dir');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start builds only when a source changed', () => {
  it('builds a checkout without dist/, then skips, then rebuilds a changed source', () => {
    expect(build()).toMatch(/modules compiled by esbuild/);
    const bundle = mtime('dist/cli-bundle/main.js');
    const module = mtime('dist/index.js');
    // The build runs: the CLI answers from the bundle.
    const version = spawnSync(process.execPath, [join(dir, 'bin/paygate.js'), '--version'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(version.status).toBe(0);

    expect(build()).toMatch(/^build: up to date/);
    expect(mtime('dist/cli-bundle/main.js')).toBe(bundle);
    expect(mtime('dist/index.js')).toBe(module);

    writeFileSync(
      join(dir, 'src/index.ts'),
      `${readFileSync(join(dir, 'src/index.ts'), 'utf8')}\nexport const startBuildProbe = 1;\n`,
    );
    expect(build()).toMatch(/modules compiled by esbuild/);
    expect(readFileSync(join(dir, 'dist/index.js'), 'utf8')).toContain('startBuildProbe');
    expect(build()).toMatch(/^build: up to date/);
  }, 120_000);

  it('notices a source put back with an older mtime, and a deleted output', () => {
    build();
    const file = join(dir, 'src/cli/version.ts');
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(file, old, old);
    expect(build()).toMatch(/modules compiled by esbuild/);
    rmSync(join(dir, 'dist/cli-bundle'), { recursive: true });
    expect(build()).toMatch(/modules compiled by esbuild/);
    expect(statSync(join(dir, 'dist/cli-bundle/main.js')).isFile()).toBe(true);
  }, 120_000);

  it('npm start does not run tsc; npm test and npm pack still do, and the stamp is not packed', () => {
    expect(manifest.scripts.prestart).toBe('node scripts/start-build.mjs');
    expect(manifest.scripts.test).toMatch(/^npm run build && npm run typecheck/);
    expect(manifest.scripts.prepack).toMatch(/npm run build$/);
    expect(manifest.scripts.build).toMatch(/^tsc -p tsconfig.json && node scripts\/build-cli.mjs$/);
    expect(manifest.files).toContain('!dist/.build-stamp');
  });
});
