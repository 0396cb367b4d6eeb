// What the build was made from, for `npm start` to skip building when nothing changed (scripts/start-build.mjs).
// The fingerprint is a hash of every input's path, size and mtime: cheap (a few hundred stats, no file read), and it
// notices an edit, a new file, a deleted or renamed one, and a file put back with an older mtime (a checkout, an
// archive) alike. The stamp, dist/.build-stamp, holds the fingerprint the last complete build was made from; it is
// written by scripts/build-cli.mjs, the last step of both `npm run build` (tsc) and `npm start`'s build (esbuild).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The inputs of the build, relative to the package root: src/ whole, the build scripts, the compiler and package settings. */
const INPUT_FILES = [
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build-cli.mjs',
  'scripts/build-stamp.mjs',
  'scripts/start-build.mjs',
];
const INPUT_DIRS = ['src'];

export const STAMP = 'dist/.build-stamp';

/** The build's outputs that `npm start` needs; a missing one means building again whatever the stamp says. */
export const OUTPUTS = [
  'dist/cli/main.js',
  'dist/cli-bundle/main.js',
  'dist/cli-contract/routes.js',
  'dist/emulator/index.js',
];

/** The fingerprint of the build's inputs under `root`. */
export function fingerprint(root) {
  const hash = createHash('sha256');
  const add = (rel) => {
    const s = statSync(join(root, rel), { throwIfNoEntry: false });
    hash.update(`${rel}\0${s ? `${s.size}\0${s.mtimeMs}` : '-'}\n`);
  };
  for (const file of INPUT_FILES) add(file);
  for (const dir of INPUT_DIRS) {
    const files = readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)).split(sep).join('/'))
      .sort();
    for (const file of files) add(file);
  }
  return hash.digest('hex');
}

/** The fingerprint the outputs under `root` were built from, or undefined (never built, or an output is missing). */
export function builtFrom(root) {
  if (OUTPUTS.some((out) => statSync(join(root, out), { throwIfNoEntry: false }) === undefined)) return undefined;
  try {
    return readFileSync(join(root, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function writeStamp(root, print) {
  writeFileSync(join(root, STAMP), `${print}\n`);
}
