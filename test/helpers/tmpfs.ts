// A real small disk for fault tests: a tmpfs of a given size, mounted in a fresh temporary folder. Mounting needs
// root (CAP_SYS_ADMIN); where it is refused the caller skips with a loud message, never silently.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Tmpfs = { ok: true; dir: string; unmount: () => void } | { ok: false; reason: string };

function run(cmd: string, args: string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
}

/** Mounting is "not permitted" for these failures only; any other failure to mount is thrown. */
function denied(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException & { stderr?: string };
  if (err.code === 'ENOENT' || err.code === 'EACCES') return `no usable mount(8) here (${err.code})`;
  const text = (err.stderr || err.message).replace(/\s+/g, ' ').trim();
  if (/must be superuser|only root|permission denied|not permitted/i.test(text)) return text;
  return undefined;
}

/** Mount a tmpfs of `size` (e.g. '256k', '4m'). */
export function mountTmpfs(size: string, prefix = 'paygate-tmpfs-'): Tmpfs {
  if (process.platform !== 'linux')
    return { ok: false, reason: `tmpfs mounts need Linux (this is ${process.platform})` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    const reason = denied(e);
    if (reason === undefined) throw e;
    return { ok: false, reason };
  }
  const unmount = () => {
    try {
      run('umount', [dir]);
    } catch {
      run('umount', ['-l', dir]); // still busy: detach it, the kernel frees it when the last handle closes
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { ok: true, dir, unmount };
}

/** Say loudly that a fault test did not run, and why. */
export function warnSkipped(file: string, reason: string): void {
  console.warn(
    `\n*** SKIPPED ${file}: a tmpfs cannot be mounted here: ${reason}\n*** The real full-disk (ENOSPC) test did NOT run; run the suite as root (CAP_SYS_ADMIN) to run it. ***\n`,
  );
}

/** Fill the file system of `dir` to the last byte with a filler file; returns its path (delete it to free the space). */
export function fillDisk(dir: string): string {
  const filler = path.join(dir, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let size = chunk.length; size >= 1;) {
      try {
        fs.writeSync(fd, chunk, 0, size);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}
