// Receipt inspection: uploaded receipt bytes → ReceiptFacts. PDF is recognised by its magic bytes only; reading is
// delegated to the isolated pdf-reader (size, page, text and time bounds), and the text rules live in
// domain/receipt-facts.ts. The decision is domain/receipt-review.ts.
import { findAmounts, forgerySignals, isInProgress, type ReceiptFacts } from '../../domain/receipt-facts.js';
import { DEFAULT_MAX_PAGES, DEFAULT_MAX_TEXT_CHARS, DEFAULT_TIMEOUT_MS, readPdf } from './pdf-reader.js';

export type { ReceiptFacts } from '../../domain/receipt-facts.js';
export { closePdfReader } from './pdf-reader.js';

export interface InspectOptions {
  /** Most pages a readable receipt may have; a PDF with more is unreadable_pdf. Default 20. */
  maxPages?: number;
  /** Most characters of text a readable receipt may have; a PDF with more is unreadable_pdf. Default 256 Ki. */
  maxTextChars?: number;
  /** Largest PDF parsed, in bytes; a larger one is unreadable_pdf. Default 10 MiB. */
  maxBytes?: number;
  /** Wall-clock budget of the parse, in ms; past it the parse is killed and the PDF is unreadable_pdf. Default 5000. */
  timeoutMs?: number;
  /** Abandons the inspection (unreadable_pdf). Default: none. */
  signal?: AbortSignal;
}

export { DEFAULT_MAX_PAGES, DEFAULT_MAX_TEXT_CHARS, DEFAULT_TIMEOUT_MS };
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
    maxTextChars: options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS,
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
    amounts: await amountsOf(text),
    ...(producer === undefined ? {} : { producer }),
    ...(creator === undefined ? {} : { creator }),
    forgery,
    in_progress: isInProgress(text),
    pages: pdf.pages,
  };
}

/** Lines of text searched for amounts between two turns of the event loop (a few ms of regex work). */
const AMOUNT_BLOCK_CHARS = 8 * 1024;

/**
 * findAmounts (line by line) over the text a block of lines at a time, yielding to the event loop between blocks,
 * so a receipt with a lot of text never holds up other requests. The same amounts, in the same order.
 */
async function amountsOf(text: string): Promise<string[]> {
  if (text.length <= AMOUNT_BLOCK_CHARS) return findAmounts(text);
  const found = new Set<string>();
  for (let at = 0; at < text.length;) {
    const cut = text.indexOf('\n', at + AMOUNT_BLOCK_CHARS);
    const end = cut === -1 ? text.length : cut;
    for (const a of findAmounts(text.slice(at, end))) found.add(a);
    at = end + 1;
    if (at < text.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return [...found];
}

/** How many `%%EOF` markers the file has (an incremental update adds one), searched natively, without a string copy. */
function countEof(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let at = buf.indexOf(EOF_MARKER); at !== -1; at = buf.indexOf(EOF_MARKER, at + EOF_MARKER.length)) n++;
  return n;
}
