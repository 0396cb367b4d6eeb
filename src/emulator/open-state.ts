// Opening a sandbox's workspace: its backend (the one given, a store file, or memory), its store, its receipt files
// and secrets, and where its clock starts.
import { DEFAULT_WORKSPACE, backendFor, type StoreBackend } from '../store/backend.js';
import { Store } from '../store/store.js';
import { loadSecrets, type SandboxSecrets } from '../store/secrets.js';
import type { FileStore } from '../store/files.js';
import type { SandboxOptions } from './sandbox.js';

/** The backend `opts` name: the one given, else a store file, else memory; and whether the sandbox owns it. */
async function backendOf(opts: SandboxOptions): Promise<{ backend: StoreBackend; owned: boolean }> {
  if (opts.backend) return { backend: opts.backend, owned: false };
  return { backend: await backendFor(opts.store, opts.fsync), owned: true };
}

export interface OpenedState {
  store: Store;
  files: FileStore;
  secrets: SandboxSecrets;
  start: number | undefined;
  certBase: string | undefined;
  /** Close the backend when the sandbox made it (from `store`); a backend given in the options is its caller's. */
  closeBackend: () => Promise<void>;
}

/**
 * Open the workspace's store, its files and secrets (src/store/backend.ts) and where the clock starts: an explicit
 * start time wins; otherwise the clock resumes where the store's last advance left it.
 */
export async function openState(opts: SandboxOptions): Promise<OpenedState> {
  const { backend, owned } = await backendOf(opts);
  const closeBackend = async () => {
    if (owned) await backend.close();
  };
  try {
    return await openWorkspace(opts, backend, closeBackend);
  } catch (e) {
    await closeBackend();
    throw e;
  }
}

async function openWorkspace(
  opts: SandboxOptions,
  backend: StoreBackend,
  closeBackend: () => Promise<void>,
): Promise<OpenedState> {
  if (opts.reset) await backend.reset();
  const storage = backend.workspace(opts.workspace ?? DEFAULT_WORKSPACE);
  const store = new Store(opts.persistence ?? storage.persistence);
  await store.open();
  const saved = store.state.meta.get('clock') as { now?: number; offset?: number } | undefined;
  const resumed =
    saved?.now === undefined
      ? undefined
      : opts.frozenClock
        ? saved.now
        : (opts.realNow ?? Date.now)() + (saved.offset ?? 0);
  const start = typeof opts.startTime === 'string' ? Date.parse(opts.startTime) : (opts.startTime ?? resumed);
  try {
    const legacy = store.state.meta.get('link_secret')?.key as string | undefined;
    // A test's own persistence keeps nothing across restarts: its secrets are fresh too.
    const secrets = opts.persistence ? loadSecrets(undefined, legacy) : await storage.secrets(legacy);
    return {
      store,
      files: storage.files,
      secrets,
      start,
      certBase: opts.persistence ? undefined : storage.certBase,
      closeBackend,
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
