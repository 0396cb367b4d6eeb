// The committed sample receipts are exactly what make-samples.mjs writes, and their PDF structure is exact
// (xref offsets, startxref, stream lengths), so pdfjs never has to repair them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPdf } from './make-samples.mjs';

const fixtures = fileURLToPath(new URL('../../fixtures/receipts/', import.meta.url));
const script = fileURLToPath(new URL('./make-samples.mjs', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'paygate-receipts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Check a PDF written by buildPdf: every xref entry points at its object, startxref at its xref, /Length is exact. */
function checkStructure(bytes: Uint8Array): void {
  const raw = Buffer.from(bytes).toString('latin1');
  const startxrefs = [...raw.matchAll(/startxref\n(\d+)\n%%EOF\n/g)].map((m) => Number(m[1]));
  expect(startxrefs.length).toBeGreaterThan(0);
  expect(raw.endsWith('%%EOF\n')).toBe(true);
  for (const at of startxrefs) {
    expect(raw.startsWith('xref\n', at)).toBe(true);
    const lines = raw.slice(at).split('\n');
    let i = 1;
    while (/^\d+ \d+$/.test(lines[i] ?? '')) {
      const [first, count] = (lines[i] ?? '').split(' ').map(Number) as [number, number];
      for (let k = 0; k < count; k++) {
        const entry = lines[i + 1 + k] ?? '';
        expect(entry).toHaveLength(19); // 20 bytes with the newline
        const [offset, , type] = entry.split(' ');
        if (type === 'n') expect(raw.startsWith(`${first + k} 0 obj\n`, Number(offset))).toBe(true);
      }
      i += 1 + count;
    }
  }
  for (const m of raw.matchAll(/\/Length (\d+)[^>]*>>\nstream\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    expect(raw.startsWith('\nendstream', start + Number(m[1]))).toBe(true);
  }
}

describe('make-samples.mjs', () => {
  it('reproduces the committed files byte for byte', () => {
    execFileSync(process.execPath, [script, out], { stdio: 'pipe' });
    const written = readdirSync(out).sort();
    const committed = readdirSync(fixtures)
      .filter((f) => f !== 'README.md')
      .sort();
    expect(written).toEqual(committed);
    for (const name of written) {
      expect(Buffer.compare(readFileSync(join(out, name)), readFileSync(join(fixtures, name))), name).toBe(0);
    }
  });

  it('writes structurally exact PDFs', () => {
    for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.pdf') && f !== 'broken.pdf')) {
      checkStructure(new Uint8Array(readFileSync(join(fixtures, name))));
    }
    checkStructure(
      buildPdf({ pages: [['a'], ['b'], ['c']], info: { Producer: 'x' }, update: { Producer: 'y' }, xmp: '<x/>' }),
    );
  });

  it('writes a valid PNG signature for the non-PDF sample and no PDF magic', () => {
    const png = readFileSync(join(fixtures, 'not-a-pdf.png'));
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it('refuses text Helvetica cannot encode', () => {
    expect(() => buildPdf({ pages: [['Сумма']] })).toThrow(/Latin-1/);
  });
});
