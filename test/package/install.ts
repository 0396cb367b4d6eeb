// The package as a user installs it, offline: `npm pack` this checkout (its dist/ as `npm test` built it) and unpack
// the tarball into node_modules/paygate of an empty project, beside the packages it declares. Those are linked from
// this checkout's node_modules, resolved through package-lock.json the way Node resolves them, so the project sees
// paygate's dependencies and what it adds itself, and nothing else (a type that needs an undeclared package fails).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory of this run where the first file that needs the tarball packs it (pack.setup.ts). */
    packDir: string | null;
  }
}

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Packed {
  /** The tarball's path. */
  tarball: string;
  /** Paths of the files in the tarball, relative to the package root. */
  files: string[];
}

/** `npm pack` without lifecycle scripts (dist/ must be built already: `npm test` builds first). */
export function packInto(dir: string): Packed {
  if (!existsSync(join(ROOT, 'dist/index.d.ts'))) throw new Error('dist/ is not built: run `npm run build` first');
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no result: ${out}`);
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path) };
}

/**
 * The tarball of this run, packed once: the first file to ask packs it into the directory the paygate project's
 * global setup made, and the others (in this or another worker) wait for it and reuse it. Without that directory (a
 * file run under another config) it packs into `dir`.
 */
export async function packOnce(dir: string): Promise<Packed> {
  const shared = inject('packDir');
  if (!shared) return packInto(dir);
  const result = join(shared, 'packed.json');
  try {
    mkdirSync(join(shared, 'lock'));
  } catch {
    for (let waited = 0; !existsSync(result); waited += 100) {
      if (waited > 120_000) throw new Error(`no tarball in ${shared} after 120 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const got = JSON.parse(readFileSync(result, 'utf8')) as Packed | { error: string };
    if ('error' in got) throw new Error(`npm pack failed in another test file: ${got.error}`);
    return got;
  }
  try {
    const packed = packInto(shared);
    writeFileSync(result, JSON.stringify(packed));
    return packed;
  } catch (e) {
    writeFileSync(result, JSON.stringify({ error: (e as Error).message }));
    throw e;
  }
}

type LockEntry = {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** The lock path (`node_modules/a/node_modules/b`) Node finds `name` at from the package at `from` ('' is the root). */
function resolveFrom(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ;) {
    const key = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** Top-level packages of this checkout's install that `roots` need, with everything they need in turn. */
export function dependencyClosure(roots: string[]): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const seen = new Set<string>();
  const queue = roots.map((name) => resolveFrom(lock.packages, '', name)).filter((k): k is string => k !== undefined);
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = lock.packages[key] ?? {};
    for (const name of Object.keys({
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...entry.peerDependencies,
    })) {
      const found = resolveFrom(lock.packages, key, name);
      if (found && !seen.has(found)) queue.push(found);
    }
  }
  const top = [...seen].map((key) => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(key)?.[1]);
  return [...new Set(top.filter((n): n is string => n !== undefined))].sort();
}

/**
 * An empty ESM project at `dir` with the tarball unpacked as node_modules/paygate and, linked, paygate's dependencies
 * plus `devDependencies` (the project's own, e.g. @types/node). Returns the linked package names.
 */
export function installConsumer(dir: string, tarball: string, devDependencies: string[]): string[] {
  const pkgDir = join(dir, 'node_modules/paygate');
  mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
  const shipped = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const linked = dependencyClosure([...Object.keys(shipped.dependencies ?? {}), ...devDependencies]).filter(
    (name) => existsSync(join(ROOT, 'node_modules', name)), // an optional package this platform did not install
  );
  for (const name of linked) {
    const at = join(dir, 'node_modules', name);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), at, 'dir');
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  return linked;
}
