// The body of a receipt upload (multipart/form-data), read as it streams in with @fastify/busboy: the declared
// length is checked before anything is read, the body is never read past the limit (a body of unknown length is cut
// at it), and `beforeFile` runs as the file part begins, with the fields sent before it, so an upload that cannot be
// accepted is refused before its file is read. A refused body is never buffered, only discarded as it arrives: to
// its end when its declared length is within the limit (the connection stays usable); otherwise for at most a few
// MiB past the answer, and then the connection is closed. A body must arrive within its deadline (the server's
// upload deadline): past it the upload is 408 upload_timeout, its queue place is freed, and the connection closed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { H3Event } from 'h3';
import { echo } from '../../contract/echo.js';
import { ApiError } from '../http/errors.js';
import { header } from '../http/headers.js';
import { DEFAULT_CONNECTION_LIMITS } from '../server-limits.js';
import { nodeExchange } from '../http/h3-internals.js';

export interface ReceiptFile {
  bytes: Uint8Array;
  filename: string;
  contentType: string;
}

export interface ReceiptForm {
  /** The text fields (a name sent twice, as a field or a file part, refuses the form). */
  fields: ReadonlyMap<string, string>;
  /** The file part of the receipt field, when one was sent. */
  file: ReceiptFile | undefined;
}

/** Parts and fields a receipt form may have; the receipt form has three. */
const FORM_LIMITS = { fieldNameSize: 100, fieldSize: 64 * 1024, fields: 16, parts: 32, headerPairs: 16 };

/** What is read and discarded of a refused body of unknown or excessive length before the connection is closed. */
export const LINGER_BYTES = 4 * 1024 * 1024;

const tooLarge = (limit: number) =>
  new ApiError(
    'body_too_large',
    `request body is larger than ${limit} bytes (a receipt is at most ${limit / 1024 / 1024} MiB)`,
  );
const repeated = (name: string) =>
  new ApiError('validation_error', `${echo(name)}: is sent more than once; send each field and file part once`);
const malformed = (why: string) =>
  new ApiError('invalid_multipart', `the multipart body could not be parsed: ${echo(why)}`);

export class ReceiptUploadBody {
  private readonly node: { req: IncomingMessage; res: ServerResponse } | undefined;
  private state: 'unread' | 'reading' | 'read' | 'left' = 'unread';
  private stopReading: () => void = () => {};
  /** The body did not arrive within its deadline: the connection is closed once answered. */
  private late = false;

  constructor(
    private readonly event: H3Event,
    private readonly limit: number,
    private readonly fileField = 'receipt',
    /** Time the body may take to arrive once reading starts, in ms. */
    private readonly deadlineMs = DEFAULT_CONNECTION_LIMITS.uploadDeadlineMs,
  ) {
    this.node = nodeExchange(event);
  }

  /** The Content-Length sent, if any. */
  get declaredLength(): number | undefined {
    const v = header(this.event, 'content-length');
    return v === null || v.trim() === '' ? undefined : Number(v);
  }

  /** 413 body_too_large, before anything is read, when the declared length is over the limit. */
  checkDeclaredLength(): void {
    const declared = this.declaredLength;
    if (declared !== undefined && !(declared <= this.limit)) {
      this.leaveUnread();
      throw tooLarge(this.limit);
    }
  }

  /**
   * The request is answered without the rest of its body: stop reading; what comes is discarded, never buffered.
   * A body of declared length within the limit is discarded to its end (Node does it for an untouched body), so
   * the connection stays usable. Any other body is discarded while the answer goes out and for at most
   * LINGER_BYTES more — so a client still sending sees the answer rather than a reset — and then the connection
   * is closed. Does nothing once the body has been read.
   */
  leaveUnread(): void {
    if (this.state === 'read' || this.state === 'left') return;
    const wasReading = this.state === 'reading';
    this.state = 'left';
    this.stopReading();
    if (!this.node) return;
    const { req, res } = this.node;
    const declared = this.declaredLength;
    if (this.late) {
      // What still trickles in is not waited for.
      const cut = () => req.socket?.destroy();
      if (res.writableFinished) cut();
      else res.once('finish', cut).once('close', cut);
      req.resume();
      return;
    }
    if (declared !== undefined && declared <= this.limit) {
      if (wasReading) req.resume();
      return;
    }
    let discarded = 0;
    let cutting = false;
    const cut = () => req.socket?.destroy();
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded <= LINGER_BYTES || cutting) return;
      cutting = true;
      if (res.writableFinished) cut();
      else res.once('finish', cut);
    });
    req.resume();
  }

  /**
   * Read the form. `beforeFile` runs as the receipt's file part begins, with the fields sent before it; what it
   * throws refuses the upload there, before the file is read. Errors: 413 body_too_large, 400 invalid_multipart,
   * 400 body_unreadable, or what `beforeFile` threw.
   */
  read(beforeFile?: (fields: ReadonlyMap<string, string>) => void): Promise<ReceiptForm> {
    if (this.state !== 'unread') return Promise.reject(new Error('a receipt body is read once'));
    return new Promise<ReceiptForm>((resolve, reject) => {
      const fields = new Map<string, string>();
      const chunks: Buffer[] = [];
      let file: Omit<ReceiptFile, 'bytes'> | undefined;
      let failed = false;
      const fail = (e: unknown) => {
        if (failed) return;
        failed = true;
        clearTimeout(deadline);
        this.leaveUnread();
        reject(e);
      };
      const deadline = setTimeout(() => {
        this.late = true;
        fail(
          new ApiError(
            'upload_timeout',
            `the receipt did not arrive within ${this.deadlineMs / 1000} s; nothing was stored — send it again`,
          ),
        );
      }, this.deadlineMs);
      deadline.unref();
      let bb: BusboyInstance;
      try {
        bb = Busboy({
          headers: { 'content-type': header(this.event, 'content-type') ?? '' },
          limits: { ...FORM_LIMITS, fileSize: this.limit },
        });
      } catch (e) {
        fail(malformed((e as Error).message));
        return;
      }
      // Every part's name, text field or file: a name sent twice is refused (which one would count is a guess that a
      // proxy reading the other would make differently).
      const names = new Set<string>();
      const once = (name: string): boolean => {
        if (names.has(name)) {
          fail(repeated(name));
          return false;
        }
        names.add(name);
        return true;
      };
      bb.on('field', (name, value) => {
        if (failed || !once(name)) return;
        fields.set(name, value);
      });
      bb.on('file', (name, stream, filename, _encoding, contentType) => {
        stream.on('error', () => fail(malformed('a part ended early')));
        if (failed || !once(name) || name !== this.fileField) return void stream.resume();
        try {
          beforeFile?.(fields);
        } catch (e) {
          stream.resume();
          return fail(e);
        }
        file = { filename, contentType };
        stream.on('data', (c: Buffer) => chunks.push(c));
      });
      for (const limit of ['partsLimit', 'fieldsLimit'] as const) bb.on(limit, () => fail(malformed('too many parts')));
      bb.on('error', (e: Error) => fail(malformed(e.message)));
      bb.on('finish', () => {
        if (failed) return;
        clearTimeout(deadline);
        this.state = 'read';
        resolve({ fields, file: file && { ...file, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) } });
      });
      this.state = 'reading';
      if (this.node) this.pipeNode(this.node.req, bb, fail);
      else void this.pipeWeb(bb, fail);
    });
  }

  private pipeNode(req: IncomingMessage, bb: BusboyInstance, fail: (e: unknown) => void): void {
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > this.limit) return fail(tooLarge(this.limit));
      bb.write(chunk);
    };
    const onEnd = () => bb.end();
    const onError = (e: Error) =>
      fail(new ApiError('body_unreadable', `the request body could not be read: ${e.message}`));
    req.on('data', onData).once('end', onEnd).once('error', onError);
    this.stopReading = () => req.off('data', onData).off('end', onEnd).off('error', onError);
  }

  private async pipeWeb(bb: BusboyInstance, fail: (e: unknown) => void): Promise<void> {
    const body = this.event.req.body;
    if (!body) return void bb.end();
    const reader = body.getReader();
    this.stopReading = () => void reader.cancel().catch(() => undefined);
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.state !== 'reading') return;
        if (done) return void bb.end();
        size += value.byteLength;
        if (size > this.limit) return fail(tooLarge(this.limit));
        bb.write(value);
      }
    } catch (e) {
      fail(new ApiError('body_unreadable', `the request body could not be read: ${(e as Error).message}`));
    }
  }
}
