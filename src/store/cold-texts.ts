// Entity texts left on disk. A file store's snapshot holds every entity's JSON text; the state keeps, for most of
// them, only where that text is (a handle: a small integer into the columns below) and reads it from the file when
// it is needed. Nothing of a cold entity then lives on the JavaScript heap but its id: 1,000,000 operations start
// without decoding their texts, take no heap for them, and give the garbage collector nothing to trace.
//
// A snapshot file is never changed once written (a compaction writes a new file and renames it over the old one), so
// an open descriptor of it stays valid, whatever happens to its path, until the last handle into it is moved to the
// next snapshot (`move`) or freed, and then it is closed. Reads go through a window of the file read ahead, so a
// scan in file order (a compaction, the start-up's timers) reads the file once in large blocks.
import { close, readSync } from 'node:fs';
import { PagedColumn } from './paged-column.js';

/** Read ahead while reads go forward through a file (a scan); a read elsewhere reads only a small block. */
const WINDOW = 1 << 20;
const BLOCK = 16 << 10;
const BACK = 4 << 10;

interface ColdFile {
  fd: number;
  path: string;
  /** Live handles into it. */
  live: number;
  /** It is the newest snapshot: new handles go into it; it is kept open even with no handle. */
  current: boolean;
}

export class ColdTexts {
  #files: (ColdFile | undefined)[] = [];
  readonly #file = new PagedColumn((n) => new Uint16Array(n));
  readonly #offset = new PagedColumn((n) => new Float64Array(n));
  readonly #length = new PagedColumn((n) => new Uint32Array(n));
  /** Bytes of a text written just before the entity's, with a tab between (an operation's load view), or 0. */
  readonly #prefix = new PagedColumn((n) => new Uint16Array(n));
  #next = 0;
  #free: number[] = [];
  /** The read-ahead window: bytes [#winStart, #winStart + #winLen) of file #winFile. */
  #win = Buffer.allocUnsafe(WINDOW);
  #winFile = -1;
  #winStart = 0;
  #winLen = 0;

  /** Register a snapshot file opened as `fd`; returns its number. The previous current file closes once unused. */
  addFile(fd: number, path: string): number {
    for (const f of this.#files) if (f) f.current = false;
    this.#files.push({ fd, path, live: 0, current: true });
    this.#closeUnused();
    return this.#files.length - 1;
  }

  /** A handle to bytes [offset, offset + length) of file `file`, and to the `prefix` bytes before them and a tab. */
  add(file: number, offset: number, length: number, prefix = 0): number {
    const h = this.#free.length > 0 ? this.#free.pop()! : this.#next++;
    this.#file.set(h, file);
    this.#offset.set(h, offset);
    this.#length.set(h, length);
    this.#prefix.set(h, prefix < 65536 ? prefix : 0);
    this.#files[file]!.live++;
    return h;
  }

  /** The handle now points at the same text in another file (the next snapshot), with a prefix of `prefix` bytes. */
  move(h: number, file: number, offset: number, prefix: number): void {
    const from = this.#file.get(h);
    this.#file.set(h, file);
    this.#offset.set(h, offset);
    this.#prefix.set(h, prefix < 65536 ? prefix : 0);
    this.#files[file]!.live++;
    this.#release(from);
  }

  /** The handle is no longer used (its entity was replaced or deleted). */
  free(h: number): void {
    this.#release(this.#file.get(h));
    this.#free.push(h);
  }

  /** Forget every handle and close every file (a reset, or the store closing). */
  clear(): void {
    for (const f of this.#files) if (f) closeLater(f.fd);
    this.#files = [];
    this.#next = 0;
    this.#free = [];
    this.#winFile = -1;
  }

  get handles(): number {
    return this.#next - this.#free.length;
  }

  get openFiles(): number {
    return this.#files.filter((f) => f !== undefined).length;
  }

  /** The length in bytes of the text a handle points at. */
  lengthOf(h: number): number {
    return this.#length.get(h);
  }

  /** The text a handle points at. */
  text(h: number): string {
    return this.#read(this.#file.get(h), this.#offset.get(h), this.#length.get(h));
  }

  /** The text written before the handle's (its prefix), or undefined. */
  prefixText(h: number): string | undefined {
    const n = this.#prefix.get(h);
    return n === 0 ? undefined : this.#read(this.#file.get(h), this.#offset.get(h) - 1 - n, n);
  }

  #read(file: number, off: number, len: number): string {
    if (file !== this.#winFile || off < this.#winStart || off + len > this.#winStart + this.#winLen)
      this.#fill(file, off, len);
    const at = off - this.#winStart;
    return this.#win.toString('utf8', at, at + len);
  }

  #fill(file: number, off: number, len: number): void {
    const f = this.#files[file];
    if (!f) throw new Error(`cold text: file ${file} is closed`);
    const forward = file === this.#winFile && off >= this.#winStart && off <= this.#winStart + this.#winLen + BLOCK;
    // Going forward the window starts a little before the text: the prefix written before the next one is in it too.
    const start = forward ? Math.max(0, off - BACK) : off;
    const need = off + len - start;
    if (need > this.#win.length) this.#win = Buffer.allocUnsafe(need);
    const want = Math.min(this.#win.length, Math.max(need, forward ? WINDOW : BLOCK));
    let got = 0;
    while (got < need) {
      const n = readSync(f.fd, this.#win, got, want - got, start + got);
      if (n === 0)
        throw new Error(
          `cold text: ${f.path} ends at ${start + got}, before byte ${off + len} (was the snapshot changed underneath the sandbox?)`,
        );
      got += n;
    }
    this.#winFile = file;
    this.#winStart = start;
    this.#winLen = got;
  }

  #release(file: number): void {
    const f = this.#files[file]!;
    f.live--;
    if (f.live === 0 && !f.current) this.#close(file);
  }

  #closeUnused(): void {
    this.#files.forEach((f, i) => {
      if (f && f.live === 0 && !f.current) this.#close(i);
    });
  }

  #close(file: number): void {
    closeLater(this.#files[file]!.fd);
    this.#files[file] = undefined;
    if (this.#winFile === file) this.#winFile = -1;
  }
}

/**
 * Closes a descriptor off the event loop. The last descriptor of a snapshot that a newer one has replaced frees the
 * file's blocks when it closes: 225 ms for a 1.9 GiB snapshot here, a pause for every request if done in place.
 */
function closeLater(fd: number): void {
  close(fd, () => {});
}
