// Receipt inspection: uploaded receipt bytes → ReceiptFacts. PDF is recognised by its magic bytes only; reading is
// delegated to the isolated pdf-reader (size, page and time bounds), and the text rules live in
// domain/receipt-facts.ts. The decision is domain/receipt-review.ts.
import { findAmounts, forgerySignals, isInProgress, type ReceiptFacts } from '../../domain/receipt-facts.js';
import { DEFAULT_MAX_PAGES, DEFAULT_TIMEOUT_MS, readPdf } from './pdf-reader.js';

export type { ReceiptFacts } from '../../domain/receipt-facts.js';
export { closePdfReader } from './pdf-reader.js';

export interface InspectOptions {
  /** Most pages a readable receipt may have; a PDF with more is unreadable_pdf. Default 20. */
  maxPages?: number;
  /** Largest PDF parsed, in bytes; a larger one is unreadable_pdf. Default 10 MiB. */
  maxBytes?: number;
  /** Wall-clock budget of the parse, in ms; past it the parse is killed and the PDF is unreadable_pdf. Default 5000. */
  timeoutMs?: number;
  /** Abandons the inspection (unreadable_pdf). Default: none. */
  signal?: AbortSignal;
}

export { DEFAULT_MAX_PAGES, DEFAULT_TIMEOUT_MS };
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

const EOF_MARKER = Buffer.from('%%EOF', 'latin1');
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** True when the bytes start with `%PDF-`. The declared content type is never consulted. */
export function isPdf(bytes: Uint8Array): boolean {
  return PDF_MAGIC.every((b, i) => bytes[i] === b);
}

const empty = (kind: ReceiptFacts['kind']): ReceiptFacts => ({
  kind,
  text: '',
  amounts: [],
  forgery: [],
  in_progress: false,
  pages: 0,
});

/** Inspect an uploaded receipt. Never throws for bad input: a PDF that cannot be read in bounds is unreadable_pdf. */
export async function inspectReceipt(bytes: Uint8Array, options: InspectOptions = {}): Promise<ReceiptFacts> {
  if (!isPdf(bytes)) return empty('not_pdf');
  if (bytes.byteLength > (options.maxBytes ?? DEFAULT_MAX_BYTES)) return empty('unreadable_pdf');
  const read = await readPdf(bytes, {
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!read.ok) return empty('unreadable_pdf');
  const { pdf } = read;

  const text = pdf.lines
    .map((l) => l.replace(/\s+/gu, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
  const { producer, creator } = pdf.info;
  const forgery = forgerySignals({
    tools: [producer, creator, ...pdf.xmpTools],
    creationDate: pdf.info.creationDate,
    modDate: pdf.info.modDate,
    eofMarkers: countEof(bytes),
    linearized: pdf.linearized,
    text,
  });
  return {
    kind: 'pdf',
    text,
    amounts: findAmounts(text),
    ...(producer === undefined ? {} : { producer }),
    ...(creator === undefined ? {} : { creator }),
    forgery,
    in_progress: isInProgress(text),
    pages: pdf.pages,
  };
}

/** How many `%%EOF` markers the file has (an incremental update adds one), searched natively, without a string copy. */
function countEof(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let at = buf.indexOf(EOF_MARKER); at !== -1; at = buf.indexOf(EOF_MARKER, at + EOF_MARKER.length)) n++;
  return n;
}
