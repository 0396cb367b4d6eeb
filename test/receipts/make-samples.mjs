#!/usr/bin/env node
// Owns the sample receipts in fixtures/receipts/: a deterministic, dependency-free writer of minimal PDFs
// (Helvetica text pages, exact xref offsets, an Info dictionary, optional incremental update) and the list of
// samples. `node test/receipts/make-samples.mjs [outDir]` writes them (default: fixtures/receipts/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Escape a PDF literal string; the text must be Latin-1 (Helvetica with WinAnsiEncoding cannot show Cyrillic). */
function pdfString(text) {
  for (const ch of text) {
    if (ch.charCodeAt(0) > 0xff) throw new Error(`not encodable in a Latin-1 PDF string: ${JSON.stringify(ch)}`);
  }
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function infoDict(info) {
  const entries = Object.entries(info).filter(([, v]) => v !== undefined);
  return `<< ${entries.map(([k, v]) => `/${k} ${pdfString(v)}`).join(' ')} >>`;
}

/**
 * Build a PDF from pages of text lines.
 * @param {object} o
 * @param {string[][]} o.pages lines of each page (at least one page)
 * @param {Record<string, string | undefined>} [o.info] Info dictionary entries (Producer, Creator, CreationDate, ModDate …)
 * @param {Record<string, string | undefined>} [o.update] when set, append an incremental update that replaces the Info dictionary
 * @param {string} [o.xmp] an XMP packet to attach as the catalog's /Metadata stream
 * @param {number} [o.padding] bytes of an object nothing refers to (a stream of spaces), to make a large file cheaply
 * @returns {Uint8Array}
 */
export function buildPdf({ pages, info = {}, update, xmp, padding }) {
  const chunks = [];
  let length = 0;
  const offsets = new Map();
  const push = (s) => {
    const b = Buffer.from(s, 'latin1');
    chunks.push(b);
    length += b.length;
  };
  const object = (num, body) => {
    offsets.set(num, length);
    push(`${num} 0 obj\n${body}\nendobj\n`);
  };
  const xref = (nums) => {
    const sorted = [...nums].sort((a, b) => a - b);
    const at = length;
    let out = 'xref\n';
    // one subsection per run of consecutive object numbers
    for (let i = 0; i < sorted.length;) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
      out += `${sorted[i]} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) {
        const n = sorted[k];
        out += n === 0 ? '0000000000 65535 f \n' : `${String(offsets.get(n)).padStart(10, '0')} 00000 n \n`;
      }
      i = j + 1;
    }
    push(out);
    return at;
  };

  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  const fontNum = 3;
  const infoNum = 4;
  const firstPage = 5;
  const pageNums = pages.map((_, i) => firstPage + 2 * i);
  const metadataNum = firstPage + 2 * pages.length;
  object(1, `<< /Type /Catalog /Pages 2 0 R${xmp === undefined ? '' : ` /Metadata ${metadataNum} 0 R`} >>`);
  object(2, `<< /Type /Pages /Kids [${pageNums.map((n) => `${n} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  object(fontNum, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  object(infoNum, infoDict(info));
  pages.forEach((lines, i) => {
    const pageNum = pageNums[i];
    const content = `BT\n/F1 12 Tf\n16 TL\n72 770 Td\n${lines.map((l) => `${pdfString(l)} Tj T*`).join('\n')}\nET\n`;
    const data = Buffer.from(content, 'latin1'); // uncompressed: zlib output may differ between Node versions
    object(
      pageNum,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${fontNum} 0 R >> >> /Contents ${pageNum + 1} 0 R >>`,
    );
    offsets.set(pageNum + 1, length);
    push(`${pageNum + 1} 0 obj\n<< /Length ${data.length} >>\nstream\n`);
    chunks.push(data);
    length += data.length;
    push('\nendstream\nendobj\n');
  });
  if (xmp !== undefined) {
    const data = Buffer.from(xmp, 'utf8');
    offsets.set(metadataNum, length);
    push(`${metadataNum} 0 obj\n<< /Type /Metadata /Subtype /XML /Length ${data.length} >>\nstream\n`);
    chunks.push(data);
    length += data.length;
    push('\nendstream\nendobj\n');
  }
  let size = metadataNum + (xmp === undefined ? 0 : 1);
  if (padding) {
    const data = Buffer.alloc(padding, 0x20);
    offsets.set(size, length);
    push(`${size} 0 obj\n<< /Length ${data.length} >>\nstream\n`);
    chunks.push(data);
    length += data.length;
    push('\nendstream\nendobj\n');
    size++;
  }
  const firstXref = xref([0, ...offsets.keys()]);
  push(`trailer\n<< /Size ${size} /Root 1 0 R /Info ${infoNum} 0 R >>\nstartxref\n${firstXref}\n%%EOF\n`);

  if (update) {
    // Incremental update: a new revision of the Info object, a new xref section and a trailer pointing back.
    offsets.clear();
    object(infoNum, infoDict(update));
    const at = xref([infoNum]);
    push(`trailer\n<< /Size ${size} /Root 1 0 R /Info ${infoNum} 0 R /Prev ${firstXref} >>\nstartxref\n${at}\n%%EOF\n`);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

const CREATED = "D:20250114093015+03'00'";
const BANK = {
  Producer: 'Sandbox Bank statements 2.1',
  Creator: 'Sandbox Bank online',
  CreationDate: CREATED,
  ModDate: CREATED,
};

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A valid 1x1 white RGB PNG; the image data is a stored (uncompressed) zlib block, so no zlib version matters. */
export function tinyPng() {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const raw = Buffer.from([0, 0xff, 0xff, 0xff]); // filter byte + one pixel
  let a = 1;
  let b = 0;
  for (const x of raw) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  const stored = Buffer.from([0x01, raw.length, 0, ~raw.length & 0xff, 0xff]);
  const idat = Buffer.concat([Buffer.from([0x78, 0x01]), stored, raw, adler]);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      chunk('IHDR', ihdr),
      chunk('IDAT', idat),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** Lines of a bank transfer receipt; `amount` null leaves the amount line out. */
export function receiptLines({ amount, status = 'Completed', extra = [] }) {
  return [
    'Sandbox Bank',
    'Transfer receipt',
    'Date: 14.01.2025 09:30:15',
    'Operation: card to card transfer',
    'Bank: Sandbox Bank',
    'Sender card: 4276 **** **** 1234',
    'Recipient card: 2200 **** **** 5678',
    ...(amount === null ? [] : [`Amount: ${amount} RUB`, 'Fee: 0,00 RUB']),
    `Status: ${status}`,
    'Document no. 000451872',
    ...extra,
  ];
}

/** Every committed sample: file name → bytes. */
export function samples() {
  const pdf = (lines, info = BANK) => buildPdf({ pages: [lines], info });
  return {
    'ok-1500.pdf': pdf(receiptLines({ amount: '1 500,00' })),
    'ok-2000.pdf': pdf(receiptLines({ amount: '2 000,00' })),
    'fake-photoshop.pdf': pdf(receiptLines({ amount: '1 500,00' }), { ...BANK, Producer: 'Adobe Photoshop 25.0' }),
    'processing-1500.pdf': pdf(receiptLines({ amount: '1 500,00', status: 'processing' })),
    'mismatch-1499.pdf': pdf(receiptLines({ amount: '1 499,00' })),
    'no-amount.pdf': pdf(receiptLines({ amount: null })),
    'not-a-pdf.png': tinyPng(),
    'broken.pdf': new Uint8Array(Buffer.from('%PDF-1.7\n\x00\x01garbage \xff\xfe not a pdf body at all\n', 'latin1')),
  };
}

/** Write every sample into `outDir`; returns the file names written. */
export function writeSamples(outDir) {
  mkdirSync(outDir, { recursive: true });
  const all = samples();
  for (const [name, bytes] of Object.entries(all)) writeFileSync(join(outDir, name), bytes);
  return Object.keys(all);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  const outDir = resolve(process.argv[2] ?? join(here, '..', '..', 'fixtures', 'receipts'));
  for (const name of writeSamples(outDir)) console.log(join(outDir, name));
}
