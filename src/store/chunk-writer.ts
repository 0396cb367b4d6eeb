// Writing a large file line by line through one reused buffer (the snapshot, see snapshot.ts).
import type { FileHandle } from 'node:fs/promises';

/**
 * Lines copied into one reused buffer and written when it fills (or on `flush`, which also yields to the event loop
 * once). No string or Buffer the size of a chunk is made per chunk: at 1,000,000 operations a Buffer.from per MiB
 * made V8 count ~2 GB of external memory and run a full garbage collection of the whole heap over and over, each
 * one a pause of 100-600 ms for requests.
 */
export class ChunkWriter {
  readonly #buf: Buffer;
  #used = 0;
  /** Bytes written to the file before the buffer's start. */
  #flushed = 0;
  /** The byte length of the last line added. */
  lastLength = 0;

  constructor(
    readonly fh: FileHandle,
    size: number,
  ) {
    this.#buf = Buffer.allocUnsafe(size);
  }

  /** Adds a line; returns its byte offset in the file. */
  async add(line: string): Promise<number> {
    const len = Buffer.byteLength(line);
    this.lastLength = len;
    if (this.#used + len > this.#buf.length) await this.flush();
    const at = this.#flushed + this.#used;
    if (len > this.#buf.length) {
      await writeAll(this.fh, Buffer.from(line, 'utf8'));
      this.#flushed += len;
    } else {
      this.#used += this.#buf.write(line, this.#used, 'utf8');
    }
    return at;
  }

  async flush(): Promise<void> {
    if (this.#used > 0) await writeAll(this.fh, this.#buf.subarray(0, this.#used));
    this.#flushed += this.#used;
    this.#used = 0;
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** Writes all of `buf` at the file's position (a write may take only part of it). */
export async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    if (bytesWritten <= 0) throw new Error(`write returned ${bytesWritten}`);
    off += bytesWritten;
  }
}
