// Isolated PDF reading: pdf.js (unpdf's serverless build: one file, no DOM, canvas binary, font faces or eval; the
// same text and metadata as pdfjs-dist's legacy build at 2 MB installed against 70 MB) runs in a small pool of
// reusable worker threads (RECEIPT_CHECK_WORKERS), each with a capped heap and one document at a time; a read waits
// for a free worker. A document that overruns its time budget, is aborted or exhausts the heap costs only its
// worker, which is terminated and replaced. pdfjs cannot run a timer-guarded parse in-thread: its fake worker runs
// on microtasks, so a hostile page blocks the event loop until it is done.
import { Worker } from 'node:worker_threads';
import { RECEIPT_CHECK_TIMEOUT_MS, RECEIPT_CHECK_WORKERS } from './limits.js';

/** What the worker returns for a readable PDF: raw text lines and document metadata, not yet interpreted. */
export interface PdfContent {
  pages: number;
  /** Text lines of every page in order (pdfjs items joined until an end of line), not yet normalised. */
  lines: string[];
  /** Info dictionary string entries that matter for receipts. */
  info: { producer?: string; creator?: string; creationDate?: string; modDate?: string };
  linearized: boolean;
  /** XMP CreatorTool and Producer, when the XMP packet has them. */
  xmpTools: string[];
}

export type PdfReadResult =
  | { ok: true; pdf: PdfContent }
  | { ok: false; reason: 'invalid' | 'too_many_pages' | 'too_much_text' | 'timeout' | 'aborted' | 'crashed' };

export interface PdfReadOptions {
  /** Most pages accepted; a PDF with more is refused (too_many_pages) before any page is read. Default 20. */
  maxPages?: number;
  /**
   * Most characters of text accepted, over all pages; reading stops past it (too_much_text). A bank receipt has a
   * few KiB; the text is interpreted on the main thread, so megabytes of it would stall every request. Default 256 Ki.
   */
  maxTextChars?: number;
  /** Wall-clock budget of the parse once the worker takes the document, in ms. Default 5000. */
  timeoutMs?: number;
  /** Abandons the read, queued or running (aborted). Default: none. */
  signal?: AbortSignal;
}

export const DEFAULT_MAX_PAGES = 20;
export const DEFAULT_MAX_TEXT_CHARS = 256 * 1024;
export const DEFAULT_TIMEOUT_MS = RECEIPT_CHECK_TIMEOUT_MS;
/** Nice value of the PDF worker threads (Linux; elsewhere they keep the process's): below the event loop's priority. */
export const PDF_WORKER_NICE = 5;
/** Old-generation heap of the PDF worker, in MiB; a document that needs more crashes the worker only. */
export const PDF_WORKER_HEAP_MB = 256;

const pdfjsUrl = import.meta.resolve('unpdf/pdfjs');

/** The worker, as CommonJS source (eval), so it runs the same from src under vitest and from dist. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Parse at a lower CPU priority than the event loop (Linux: nice is per thread), so a busy worker never delays requests.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
// pdfjs prints polyfill warnings on load (e.g. without @napi-rs/canvas); nobody needs them
for (const k of ['log', 'info', 'warn', 'error', 'debug']) console[k] = () => {};
const pdfjs = import(workerData.pdfjsUrl);
pdfjs.then(() => parentPort.postMessage({ ready: true }), () => parentPort.postMessage({ ready: false }));
const text = (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
parentPort.on('message', async ({ id, data, maxPages, maxTextChars }) => {
  let task;
  try {
    const { getDocument, VerbosityLevel } = await pdfjs;
    task = getDocument({
      data,
      useWorkerFetch: false,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      isOffscreenCanvasSupported: false,
      enableXfa: false,
      verbosity: VerbosityLevel.ERRORS,
    });
    const doc = await task.promise;
    if (doc.numPages < 1 || doc.numPages > maxPages) {
      parentPort.postMessage({ id, ok: false, reason: 'too_many_pages' });
      return;
    }
    const { info = {}, metadata } = await doc.getMetadata();
    const xmpTools = ['xmp:creatortool', 'pdf:producer'].map((k) => text(metadata && metadata.get(k))).filter(Boolean);
    const lines = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        chars += item.str.length;
        if (chars > maxTextChars) {
          parentPort.postMessage({ id, ok: false, reason: 'too_much_text' });
          return;
        }
        line += item.str;
        if (item.hasEOL) { lines.push(line); line = ''; }
      }
      lines.push(line);
      page.cleanup();
    }
    const pdf = {
      pages: doc.numPages,
      lines,
      info: { producer: text(info.Producer), creator: text(info.Creator), creationDate: text(info.CreationDate), modDate: text(info.ModDate) },
      linearized: info.IsLinearized === true,
      xmpTools,
    };
    parentPort.postMessage({ id, ok: true, pdf });
  } catch {
    parentPort.postMessage({ id, ok: false, reason: 'invalid' });
  } finally {
    if (task) await task.destroy().catch(() => {});
  }
});
`;

type WorkerReply =
  | { id: number; ok: true; pdf: PdfContent }
  | { id: number; ok: false; reason: 'invalid' | 'too_many_pages' | 'too_much_text' };

/** One worker of the pool: started on first use, replaced after a crash, a timeout or an abort. */
interface Slot {
  worker: Worker | undefined;
  /** Whether the worker has loaded pdfjs (false: it could not, or it exited first). */
  ready: Promise<boolean>;
  busy: boolean;
}

const slots: Slot[] = Array.from({ length: RECEIPT_CHECK_WORKERS }, () => ({
  worker: undefined,
  ready: Promise.resolve(false),
  busy: false,
}));
/** Longest a new worker may take to load pdfjs before its first document (the parse budget starts after it). */
const LOAD_TIMEOUT_MS = 30_000;
/** Reads waiting for a free worker, oldest first. */
const waiting: ((slot: Slot) => void)[] = [];
/** Resolved when no read is running or waiting (closePdfReader). */
let idle: { promise: Promise<void>; resolve: () => void } | undefined;
let seq = 0;

function spawn(slot: Slot): Worker {
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { pdfjsUrl, nice: PDF_WORKER_NICE },
    resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_HEAP_MB },
  });
  w.on('error', () => retire(slot, w)); // a crash between documents: the next read starts a new worker
  w.on('exit', () => {
    if (slot.worker === w) slot.worker = undefined;
  });
  w.unref(); // an idle reader never keeps the process alive
  slot.ready = new Promise<boolean>((resolve) => {
    const onReady = (m: { ready?: boolean }) => {
      if (m.ready === undefined) return;
      w.off('message', onReady);
      resolve(m.ready);
    };
    w.on('message', onReady);
    w.once('exit', () => resolve(false));
  });
  return w;
}

/** Wait until the slot's worker has loaded pdfjs: the parse budget is the document's, not the parser's start-up. */
async function loaded(slot: Slot, w: Worker, signal: AbortSignal | undefined): Promise<PdfReadResult | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const outcome = await Promise.race([
    slot.ready.then((ok) => (ok ? 'ready' : 'crashed')),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), LOAD_TIMEOUT_MS))),
    new Promise<'aborted'>((resolve) =>
      signal?.addEventListener('abort', (onAbort = () => resolve('aborted')), { once: true }),
    ),
  ]);
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
  if (outcome === 'ready') return undefined;
  if (outcome !== 'aborted') retire(slot, w);
  return { ok: false, reason: outcome === 'aborted' ? 'aborted' : 'crashed' };
}

function retire(slot: Slot, w: Worker): void {
  if (slot.worker === w) slot.worker = undefined;
  void w.terminate().catch(() => {});
}

function acquire(): Promise<Slot> {
  const free = slots.find((s) => !s.busy);
  if (free) {
    free.busy = true;
    return Promise.resolve(free);
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(slot: Slot): void {
  const next = waiting.shift();
  if (next) return next(slot);
  slot.busy = false;
  if (idle && slots.every((s) => !s.busy)) idle.resolve();
}

/** Read a PDF in a worker of the pool. Never throws; the caller's bytes are copied, not transferred. */
export async function readPdf(bytes: Uint8Array, options: PdfReadOptions = {}): Promise<PdfReadResult> {
  const slot = await acquire();
  try {
    return await runOne(slot, bytes, options);
  } finally {
    release(slot);
  }
}

async function runOne(slot: Slot, bytes: Uint8Array, options: PdfReadOptions): Promise<PdfReadResult> {
  const { signal } = options;
  if (signal?.aborted) return { ok: false, reason: 'aborted' };
  const w = (slot.worker ??= spawn(slot));
  const notLoaded = await loaded(slot, w, signal);
  if (notLoaded) return notLoaded;
  const id = ++seq;
  const data = new Uint8Array(bytes); // a copy, whose buffer is transferred to the worker

  return new Promise<PdfReadResult>((resolve) => {
    let done = false;
    const finish = (result: PdfReadResult, kill: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      w.off('message', onMessage);
      w.off('error', onCrash);
      w.off('exit', onCrash);
      if (kill) retire(slot, w);
      resolve(result);
    };
    const onMessage = (m: WorkerReply) => {
      if (m.id === id) finish(m.ok ? { ok: true, pdf: m.pdf } : { ok: false, reason: m.reason }, false);
    };
    const onCrash = () => finish({ ok: false, reason: 'crashed' }, true); // e.g. ERR_WORKER_OUT_OF_MEMORY
    const onAbort = () => finish({ ok: false, reason: 'aborted' }, true);
    const timer = setTimeout(
      () => finish({ ok: false, reason: 'timeout' }, true),
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    w.on('message', onMessage);
    w.once('error', onCrash);
    w.once('exit', onCrash);
    signal?.addEventListener('abort', onAbort, { once: true });
    w.postMessage(
      {
        id,
        data,
        maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
        maxTextChars: options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS,
      },
      [data.buffer],
    );
  });
}

let holders = 0;

/**
 * Keep the reader workers for as long as someone holds them: each sandbox holds them while open, and so may a caller
 * that opens many sandboxes in turn (the scenario runner), so a worker is started once, not once per sandbox,
 * and one sandbox closing never terminates one under another's read. The last release terminates them.
 */
export function retainPdfReader(): () => Promise<void> {
  holders++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0) await closePdfReader();
  };
}

/** Terminate the reader workers once no read is running or waiting (graceful shutdown, tests). The next read starts new ones. */
export async function closePdfReader(): Promise<void> {
  if (slots.some((s) => s.busy)) {
    if (!idle) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      idle = { promise, resolve };
    }
    await idle.promise;
    idle = undefined;
  }
  const running = slots.map((s) => s.worker).filter((w) => w !== undefined);
  for (const s of slots) s.worker = undefined;
  await Promise.all(running.map((w) => w.terminate()));
}
