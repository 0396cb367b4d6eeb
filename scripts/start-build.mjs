// `npm start`'s build (package.json "prestart"): only what starting the sandbox and running the CLI need, and nothing
// when the build is up to date. It does not type-check: `npm test` (and `npm pack`) build with tsc and type-check.
//
// 1. Up to date? The fingerprint of the inputs (scripts/build-stamp.mjs: src/, the build scripts, tsconfig.json,
//    package.json, package-lock.json; each file's path, size and mtime) equals the one the last complete build
//    stamped, and its outputs are there: nothing to do (a restart costs a few hundred stats).
// 2. Else every module of src/ is compiled to dist/ by esbuild, one file each as tsc lays them out (no bundling, no
//    type-check, no declarations: what tsc's .d.ts were stays), then scripts/build-cli.mjs makes the CLI's contract
//    tables and bundle, and stamps the build.
// Prints one line saying which.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtFrom, fingerprint } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

const inputs = fingerprint(root);
if (builtFrom(root) === inputs) {
  console.log(`build: up to date (${seconds()})`);
} else {
  const { build } = await import('esbuild');
  const modules = readdirSync(join(root, 'src'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(root, 'src', f));
  await build({
    entryPoints: modules,
    outdir: join(root, 'dist'),
    outbase: join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    absWorkingDir: root,
    logLevel: 'warning',
  });
  console.log(
    `build: ${modules.length} modules compiled by esbuild (no type-check; \`npm test\` does it) in ${seconds()}`,
  );
  // The contract tables and the CLI bundle; it stamps the build with the inputs as they were before it began.
  process.env.PAYGATE_BUILD_INPUTS = inputs;
  await import(pathToFileURL(join(root, 'scripts/build-cli.mjs')).href);
}
