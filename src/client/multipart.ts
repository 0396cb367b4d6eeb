// Encodes the multipart/form-data body of POST /v1/confirm_payment from a path, bytes, a Blob or a stream.
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { PaygateError } from './errors.js';

/**
 * A receipt file: a path on disk, its bytes, a Blob/File, or a readable stream.
 * A path, bytes and a Blob are read into memory once and can be re-sent on retry; a stream is sent as it
 * is read (not buffered) and is therefore never retried.
 */
export type ReceiptSource = string | Uint8Array | Blob | Readable | AsyncIterable<Uint8Array>;

export interface FilePart {
  source: ReceiptSource;
  /** File name sent in the part. Default: the basename of a path, the name of a File, else `receipt.pdf`. */
  filename?: string | undefined;
  /** Content type of the part. Default: the Blob's own type when it has one, else `application/pdf`. */
  contentType?: string | undefined;
}

export interface MultipartBody {
  contentType: string;
  /** Whether `open()` may be called more than once (false for a one-shot stream). */
  replayable: boolean;
  /** The bytes to send; call once per attempt. */
  open(): Buffer | Readable;
}

const CRLF = '\r\n';

export async function encodeMultipart(
  fields: Record<string, string>,
  fileField: string,
  file: FilePart,
): Promise<MultipartBody> {
  const boundary = `paygate-${crypto.randomUUID()}`;
  const { filename, contentType } = fileMeta(file);
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}${CRLF}Content-Disposition: form-data; name="${escapeQuoted(name)}"${CRLF}${CRLF}${value}${CRLF}`;
  }
  head +=
    `--${boundary}${CRLF}Content-Disposition: form-data; name="${escapeQuoted(fileField)}"; ` +
    `filename="${escapeQuoted(filename)}"${CRLF}Content-Type: ${contentType}${CRLF}${CRLF}`;
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`${CRLF}--${boundary}--${CRLF}`, 'utf8');
  const type = `multipart/form-data; boundary=${boundary}`;

  const bytes = await readReplayable(file.source);
  if (bytes) {
    const whole = Buffer.concat([headBytes, bytes, tailBytes]);
    return { contentType: type, replayable: true, open: () => whole };
  }

  const stream = file.source as AsyncIterable<Uint8Array>;
  let opened = false;
  return {
    contentType: type,
    replayable: false,
    open() {
      if (opened) throw new PaygateError('a receipt stream can be sent only once');
      opened = true;
      return Readable.from(
        (async function* () {
          yield headBytes;
          for await (const chunk of stream) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          yield tailBytes;
        })(),
        { objectMode: false },
      );
    },
  };
}

async function readReplayable(source: ReceiptSource): Promise<Buffer | undefined> {
  if (typeof source === 'string') {
    try {
      return await (await import('node:fs/promises')).readFile(source);
    } catch (e) {
      throw new PaygateError(`cannot read receipt file ${JSON.stringify(source)}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  }
  if (source instanceof Uint8Array) return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  if (source instanceof Blob) return Buffer.from(await source.arrayBuffer());
  if (source !== null && typeof source === 'object' && Symbol.asyncIterator in source) return undefined;
  throw new PaygateError('receipt must be a file path, a Buffer/Uint8Array, a Blob or a readable stream');
}

function fileMeta(file: FilePart): { filename: string; contentType: string } {
  const s = file.source;
  const ownName =
    typeof s === 'string' ? basename(s) : s instanceof Blob && 'name' in s && typeof s.name === 'string' ? s.name : '';
  const ownType = s instanceof Blob ? s.type : '';
  return {
    filename: file.filename ?? (ownName || 'receipt.pdf'),
    contentType: (file.contentType ?? (ownType || 'application/pdf')).replace(/[\r\n]/g, ''),
  };
}

/** Quoted-string escaping of form-data names, as browsers do it (WHATWG HTML, multipart/form-data). */
function escapeQuoted(s: string): string {
  return s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
