// Types of make-samples.mjs (the sample receipt writer), for the TypeScript tests that import it.
export interface BuildPdfOptions {
  /** Text lines of each page (at least one page). */
  pages: string[][];
  /** Info dictionary entries (Producer, Creator, CreationDate, ModDate …). Default: empty. */
  info?: Record<string, string | undefined>;
  /** When set, an incremental update replacing the Info dictionary is appended. Default: none. */
  update?: Record<string, string | undefined>;
  /** XMP packet attached as the catalog's /Metadata stream. Default: none. */
  xmp?: string;
  /** Bytes of an object nothing refers to (a stream of spaces), to make a large file cheaply. Default: none. */
  padding?: number;
}
export function buildPdf(options: BuildPdfOptions): Uint8Array;
export function receiptLines(options: { amount: string | null; status?: string; extra?: string[] }): string[];
export function tinyPng(): Uint8Array;
export function samples(): Record<string, Uint8Array>;
export function writeSamples(outDir: string): string[];
