// Uploaded files (receipts): a directory beside the store file, or memory for an in-memory sandbox.
// A file is written (and flushed) before the operation that refers to it is committed.
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface FileStore {
  put(id: string, bytes: Uint8Array): Promise<void>;
  get(id: string): Promise<Uint8Array | undefined>;
  /** Forget a file no committed record refers to (an upload that lost its race). Missing is fine. */
  remove(id: string): Promise<void>;
}

export class MemoryFileStore implements FileStore {
  private readonly files = new Map<string, Uint8Array>();
  async put(id: string, bytes: Uint8Array): Promise<void> {
    this.files.set(id, bytes.slice());
  }
  async get(id: string): Promise<Uint8Array | undefined> {
    return this.files.get(id);
  }
  async remove(id: string): Promise<void> {
    this.files.delete(id);
  }
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export class DirFileStore implements FileStore {
  constructor(readonly dir: string) {}

  async put(id: string, bytes: Uint8Array): Promise<void> {
    if (!SAFE_ID.test(id)) throw new Error(`invalid file id ${id}`);
    await mkdir(this.dir, { recursive: true });
    const target = join(this.dir, id);
    const tmp = `${target}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.write(bytes);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
  }

  async remove(id: string): Promise<void> {
    if (SAFE_ID.test(id)) await rm(join(this.dir, id), { force: true });
  }

  async get(id: string): Promise<Uint8Array | undefined> {
    if (!SAFE_ID.test(id)) return undefined;
    try {
      return new Uint8Array(await readFile(join(this.dir, id)));
    } catch {
      return undefined;
    }
  }
}

/** The files directory that belongs to a store file: `<store>.files/`. */
export function filesDirFor(storePath: string): string {
  return join(dirname(storePath), `${storePath.split(/[\\/]/).pop()}.files`);
}
