// The lock file `<path>.lock` of a FilePersistence: created with O_EXCL and holding {pid, startedAt, hostname,
// nonce}, it gives its owner the snapshot and the journal. Owns acquisition, stale-lock takeover (dead pid, or an
// unreadable lock old enough), release (only of a lock that is still ours) and the best-effort release on exit.
import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { open as openFile, readFile, stat, unlink, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import { StoreLockedError } from './errors.js';
import { errno, isRecord } from './util.js';

/** A stale lock whose content cannot be parsed is taken over only once it is this old (it may be being written). */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

export interface LockToken {
  pid: number;
  startedAt: string;
  hostname: string;
  nonce: string;
}

/** Locks held by this process: nonce → lock path. Lets us tell "this process, another handle" from "a previous process that had our pid". */
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Best effort for a process that exits without close(). Signals and SIGKILL do not get here: a lock whose pid
  // is dead is taken over by the next open() anyway.
  process.on('exit', () => {
    for (const [nonce, file] of held) {
      try {
        if (parseLock(readFileSync(file, 'utf8'))?.nonce === nonce) unlinkSync(file);
      } catch {
        /* ignore */
      }
    }
    held.clear();
  });
}

function parseLock(text: string): (Partial<LockToken> & { pid: number }) | undefined {
  try {
    const t: unknown = JSON.parse(text);
    if (!isRecord(t) || typeof t.pid !== 'number' || !Number.isSafeInteger(t.pid) || t.pid <= 0) return undefined;
    return {
      pid: t.pid,
      ...(typeof t.startedAt === 'string' ? { startedAt: t.startedAt } : {}),
      ...(typeof t.hostname === 'string' ? { hostname: t.hostname } : {}),
      ...(typeof t.nonce === 'string' ? { nonce: t.nonce } : {}),
    };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errno(e) === 'EPERM'; // exists, owned by someone else
  }
}

/** Creates `lockPath` with O_EXCL, taking over a stale lock; throws StoreLockedError if a live owner holds it. */
export async function acquireLock(lockPath: string, storePath: string): Promise<LockToken> {
  const token: LockToken = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    hostname: os.hostname(),
    nonce: randomUUID(),
  };
  for (let attempt = 0; ; attempt++) {
    let fh: FileHandle;
    try {
      fh = await openFile(lockPath, 'wx', 0o600);
    } catch (e) {
      if (errno(e) !== 'EEXIST') throw e;
      if (attempt >= 5) throw new StoreLockedError(storePath, lockPath, undefined, { unreadable: true });
      await clearStaleLock(lockPath, storePath); // throws StoreLockedError when the owner is alive
      continue;
    }
    held.set(token.nonce, lockPath);
    installExitHook();
    try {
      await fh.writeFile(`${JSON.stringify(token)}\n`);
      await fh.close();
    } catch (e) {
      held.delete(token.nonce);
      await fh.close().catch(() => {});
      await unlink(lockPath).catch(() => {});
      throw e;
    }
    return token;
  }
}

/** Throws StoreLockedError if the lock's owner is alive; removes the lock if it is stale. */
async function clearStaleLock(lockPath: string, storePath: string): Promise<void> {
  const read = async () => {
    try {
      return await readFile(lockPath, 'utf8');
    } catch (e) {
      if (errno(e) === 'ENOENT') return undefined;
      throw e;
    }
  };
  const text = await read();
  if (text === undefined) return; // released meanwhile
  const owner = parseLock(text);
  if (owner === undefined) {
    // Empty or garbled: an owner between creating and writing it, or a crash right there.
    const st = await stat(lockPath).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs < UNREADABLE_LOCK_GRACE_MS) {
      throw new StoreLockedError(storePath, lockPath, undefined, { unreadable: true });
    }
  } else if (owner.nonce !== undefined && held.get(owner.nonce) === lockPath) {
    throw new StoreLockedError(storePath, lockPath, owner.pid, { sameProcess: true });
  } else if (owner.pid !== process.pid && isAlive(owner.pid)) {
    throw new StoreLockedError(storePath, lockPath, owner.pid, owner);
  }
  // Stale: the owner is dead (or had our pid in an earlier life, e.g. pid 1 of a restarted container).
  // Remove it only if it is still the lock we judged.
  if ((await read()) === text) {
    await unlink(lockPath).catch((e: unknown) => {
      if (errno(e) !== 'ENOENT') throw e;
    });
  }
}

/** Removes the lock if it is still the one `token` created (not taken over meanwhile). No token: nothing to do. */
export async function releaseLock(lockPath: string, token: LockToken | undefined): Promise<void> {
  if (!token) return;
  held.delete(token.nonce);
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (e) {
    if (errno(e) === 'ENOENT') return;
    throw e;
  }
  if (parseLock(text)?.nonce !== token.nonce) return; // taken over by someone else: not ours to remove
  await unlink(lockPath).catch((e: unknown) => {
    if (errno(e) !== 'ENOENT') throw e;
  });
}
