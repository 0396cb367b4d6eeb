// Isolated PDF reading: pdf.js (unpdf's serverless build: one 1.6 MB file, no DOM, canvas binary, font faces or eval;
// the same text and metadata as pdfjs-dist's legacy build, 2 MB installed against its 37 MB and a 33 MB optional
// canvas) runs in one reusable worker thread with a capped heap, one document at a time. A document that overruns its
// time budget, is aborted or exhausts the heap costs only the worker, which is terminated and replaced. pdfjs cannot
// run a timer-guarded parse in-thread: its fake worker runs on microtasks, so a hostile page blocks the event loop
// until it is done.
import { Worker } from 'node:worker_threads';

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
  | { ok: false; reason: 'invalid' | 'too_many_pages' | 'timeout' | 'aborted' | 'crashed' };

export interface PdfReadOptions {
  /** Most pages accepted; a PDF with more is refused (too_many_pages) before any page is read. Default 20. */
  maxPages?: number;
  /** Wall-clock budget of the parse once the worker takes the document, in ms. Default 5000. */
  timeoutMs?: number;
  /** Abandons the read, queued or running (aborted). Default: none. */
  signal?: AbortSignal;
}

export const DEFAULT_MAX_PAGES = 20;
export const DEFAULT_TIMEOUT_MS = 5000;
/** Old-generation heap of the PDF worker, in MiB; a document that needs more crashes the worker only. */
export const PDF_WORKER_HEAP_MB = 256;

const pdfjsUrl = import.meta.resolve('unpdf/pdfjs');

/** The worker, as CommonJS source (eval), so it runs the same from src under vitest and from dist. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// pdfjs prints polyfill warnings on load (e.g. without @napi-rs/canvas); nobody needs them
for (const k of ['log', 'info', 'warn', 'error', 'debug']) console[k] = () => {};
const pdfjs = import(workerData.pdfjsUrl);
const text = (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
parentPort.on('message', async ({ id, data, maxPages }) => {
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
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
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

type WorkerReply = { id: number; ok: true; pdf: PdfContent } | { id: number; ok: false; reason: 'invalid' | 'too_many_pages' };

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();
let seq = 0;

function spawn(): Worker {
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { pdfjsUrl },
    resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_HEAP_MB },
  });
  w.on('error', () => retire(w)); // a crash between documents: the next read starts a new worker
  w.on('exit', () => {
    if (worker === w) worker = undefined;
  });
  w.unref(); // an idle reader never keeps the process alive
  return w;
}

function retire(w: Worker): void {
  if (worker === w) worker = undefined;
  void w.terminate().catch(() => {});
}

/** Read a PDF in the worker. Never throws; the caller's bytes are copied, not transferred. */
export function readPdf(bytes: Uint8Array, options: PdfReadOptions = {}): Promise<PdfReadResult> {
  const run = queue.then(() => runOne(bytes, options));
  queue = run.catch(() => {});
  return run;
}

function runOne(bytes: Uint8Array, options: PdfReadOptions): Promise<PdfReadResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'aborted' });
  const w = (worker ??= spawn());
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
      if (kill) retire(w);
      resolve(result);
    };
    const onMessage = (m: WorkerReply) => {
      if (m.id === id) finish(m.ok ? { ok: true, pdf: m.pdf } : { ok: false, reason: m.reason }, false);
    };
    const onCrash = () => finish({ ok: false, reason: 'crashed' }, true); // e.g. ERR_WORKER_OUT_OF_MEMORY
    const onAbort = () => finish({ ok: false, reason: 'aborted' }, true);
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }, true), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    w.on('message', onMessage);
    w.once('error', onCrash);
    w.once('exit', onCrash);
    signal?.addEventListener('abort', onAbort, { once: true });
    w.postMessage({ id, data, maxPages: options.maxPages ?? DEFAULT_MAX_PAGES }, [data.buffer]);
  });
}

let holders = 0;

/**
 * Keep the reader worker for as long as someone holds it: each sandbox holds it while open, and so may a caller
 * that opens many sandboxes in turn (the scenario runner), so the worker is started once, not once per sandbox,
 * and one sandbox closing never terminates it under another's read. The last release terminates it.
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

/** Terminate the idle reader worker (graceful shutdown, tests). The next read starts a new one. */
export async function closePdfReader(): Promise<void> {
  await queue;
  const w = worker;
  worker = undefined;
  if (w) await w.terminate();
}
