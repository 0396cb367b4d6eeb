// Where a sandbox keeps its data. A backend hands each workspace its storage: the Persistence its store writes
// through (the journal), the FileStore of uploaded receipts, and its secrets (receipt-link and flexible-link keys).
// The file backend (the default: a store file and the files beside it) and memory implement it here; PostgreSQL
// implements it in src/store/postgres/. The workspace `default` is the one a sandbox has always had: on the file
// backend it lives at the store path itself, so stores made before workspaces existed open unchanged.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StoreLockedError } from './errors.js';
import { FilePersistence } from './file-persistence.js';
import { DirFileStore, MemoryFileStore, filesDirFor, type FileStore } from './files.js';
import { MemoryPersistence } from './memory-persistence.js';
import type { Persistence } from './persistence.js';
import { loadSecrets, secretsPathFor, type SandboxSecrets } from './secrets.js';

/** The workspace every sandbox has, and the only one of a sandbox that never creates another. */
export const DEFAULT_WORKSPACE = 'default';

/** A workspace id: lower-case letters, digits, `_` and `-`, 1 to 64 characters. */
export const WORKSPACE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** One workspace's storage, handed out by a backend; the sandbox opens and closes its persistence. */
export interface WorkspaceStorage {
  readonly persistence: Persistence;
  readonly files: FileStore;
  /**
   * The workspace's secrets, created and kept on first use. `legacyLinkKey` is a link key an older version kept in the
   * store itself: it is carried over so links issued before stay valid. Call after the persistence is open.
   */
  secrets(legacyLinkKey?: string): Promise<SandboxSecrets>;
  /** A file path the TLS certificate may be kept beside (file backend, default workspace); undefined: not kept. */
  readonly certBase: string | undefined;
}

export interface StoreBackend {
  /** What to name in messages: the store file, or the database URL without its password. */
  readonly label: string;
  /** The storage of workspace `id` (WORKSPACE_ID). Nothing is opened until its persistence is. */
  workspace(id: string): WorkspaceStorage;
  /** Remove everything of workspace `id` (it must be closed). Missing is fine. */
  drop(id: string): Promise<void>;
  /** Remove every workspace's data, refused while another process owns the store. */
  reset(): Promise<void>;
  /** Release what the backend holds (connections). The workspaces' persistences are closed by their sandboxes. */
  close(): Promise<void>;
}

/**
 * The backend a `store` option names: a PostgreSQL database (`postgres://…`, loaded only then: the file path never
 * loads pg), a store file, or (undefined) memory.
 */
export async function backendFor(store: string | undefined, fsync?: boolean): Promise<StoreBackend> {
  if (store !== undefined && /^postgres(ql)?:\/\//i.test(store)) {
    const { PostgresBackend } = await import('./postgres/backend.js');
    return new PostgresBackend({ url: store, fsync });
  }
  return store ? new FileBackend({ path: store, fsync: fsync ?? false }) : new MemoryBackend();
}

function checkWorkspaceId(id: string): void {
  if (!WORKSPACE_ID.test(id)) throw new TypeError(`workspace id ${JSON.stringify(id)} must match ${WORKSPACE_ID}`);
}

/** Nothing kept: each workspace lives in memory for the life of the process. */
export class MemoryBackend implements StoreBackend {
  readonly label = 'memory';
  workspace(id: string): WorkspaceStorage {
    checkWorkspaceId(id);
    return {
      persistence: new MemoryPersistence(),
      files: new MemoryFileStore(),
      secrets: async (legacy) => loadSecrets(undefined, legacy),
      certBase: undefined,
    };
  }
  async drop(): Promise<void> {}
  async reset(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * A store file and the files beside it (`<store>.journal`, `.secrets`, `.files/`, `.lock`); workspace `w` other than
 * the default lives in `<store>.workspaces/w.json` and its own files beside that.
 */
export class FileBackend implements StoreBackend {
  constructor(readonly opts: { path: string; fsync?: boolean }) {}

  get label(): string {
    return this.opts.path;
  }

  /** The store file of workspace `id`. */
  pathOf(id: string): string {
    checkWorkspaceId(id);
    return id === DEFAULT_WORKSPACE ? this.opts.path : join(this.workspacesDir, `${id}.json`);
  }

  get workspacesDir(): string {
    return join(dirname(this.opts.path), `${this.opts.path.split(/[\\/]/).pop()}.workspaces`);
  }

  workspace(id: string): WorkspaceStorage {
    const path = this.pathOf(id);
    return {
      persistence: new FilePersistence({ path, fsync: this.opts.fsync ?? false, compactOnOpen: 'background' }),
      files: new DirFileStore(filesDirFor(path)),
      secrets: async (legacy) => loadSecrets(path, legacy),
      certBase: id === DEFAULT_WORKSPACE ? path : undefined,
    };
  }

  async drop(id: string): Promise<void> {
    if (id === DEFAULT_WORKSPACE)
      throw new TypeError('the default workspace cannot be dropped; reset the store instead');
    removeStoreFiles(this.pathOf(id));
  }

  async reset(): Promise<void> {
    removeStoreFiles(this.opts.path);
    rmSync(this.workspacesDir, { recursive: true, force: true });
  }

  async close(): Promise<void> {}
}

/** Remove a store file and what lives beside it, unless a live process owns it. */
function removeStoreFiles(path: string): void {
  const lock = `${path}.lock`;
  if (existsSync(lock)) {
    try {
      const { pid } = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
      if (pid !== process.pid && isAlive(pid)) throw new StoreLockedError(path, lock, pid);
    } catch (e) {
      if (e instanceof StoreLockedError) throw e;
    }
  }
  for (const f of [path, `${path}.journal`, secretsPathFor(path), filesDirFor(path), lock])
    rmSync(f, { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
