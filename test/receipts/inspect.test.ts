// The receipt inspector on the committed samples and on generated edge cases (page limit, incremental update,
// XMP editor, size and time bounds).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closePdfReader,
  DEFAULT_MAX_TEXT_CHARS,
  inspectReceipt,
  isPdf,
  type ReceiptFacts,
} from '../../src/emulator/receipts/inspect.js';
import { RECEIPT_CHECK_WORKERS } from '../../src/emulator/receipts/limits.js';
import { PDF_WORKER_NICE } from '../../src/emulator/receipts/pdf-reader.js';
import { buildPdf, receiptLines } from './make-samples.mjs';

const dir = fileURLToPath(new URL('../../fixtures/receipts/', import.meta.url));
const sample = (name: string) => new Uint8Array(readFileSync(`${dir}${name}`));

afterAll(() => closePdfReader());

/**
 * A 40 KB PDF whose one page inflates to `mb` MiB of text operators: read in-thread it would block the event loop
 * for seconds (about 0.6 s per MiB) and take gigabytes.
 */
function textBomb(mb: number): Uint8Array {
  const ops = Buffer.alloc(mb * 1024 * 1024, '0 0 Td (A) Tj\n');
  const content = deflateSync(Buffer.concat([Buffer.from('BT /F1 12 Tf\n'), ops, Buffer.from('ET\n')]));
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  push('%PDF-1.4\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  objects.forEach((body, i) => {
    offsets.push(length);
    if (body !== null) return push(`${i + 1} 0 obj\n${body}\nendobj\n`);
    push(`${i + 1} 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`);
    push(content);
    push('\nendstream\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

const CREATED = "D:20250114093015+03'00'";
const BANK = {
  Producer: 'Sandbox Bank statements 2.1',
  Creator: 'Sandbox Bank online',
  CreationDate: CREATED,
  ModDate: CREATED,
};

describe('inspectReceipt on the samples', () => {
  const cases: [string, Partial<ReceiptFacts>][] = [
    ['ok-1500.pdf', { kind: 'pdf', amounts: ['1500.00', '0.00'], forgery: [], in_progress: false, pages: 1 }],
    ['ok-2000.pdf', { kind: 'pdf', amounts: ['2000.00', '0.00'], forgery: [], in_progress: false, pages: 1 }],
    [
      'fake-photoshop.pdf',
      {
        kind: 'pdf',
        amounts: ['1500.00', '0.00'],
        forgery: ['edited_with:Adobe Photoshop'],
        in_progress: false,
        producer: 'Adobe Photoshop 25.0',
      },
    ],
    ['processing-1500.pdf', { kind: 'pdf', amounts: ['1500.00', '0.00'], forgery: [], in_progress: true }],
    ['mismatch-1499.pdf', { kind: 'pdf', amounts: ['1499.00', '0.00'], forgery: [], in_progress: false }],
    ['no-amount.pdf', { kind: 'pdf', amounts: [], forgery: [], in_progress: false }],
    ['not-a-pdf.png', { kind: 'not_pdf', text: '', amounts: [], forgery: [], in_progress: false, pages: 0 }],
    ['broken.pdf', { kind: 'unreadable_pdf', text: '', amounts: [], forgery: [], in_progress: false, pages: 0 }],
  ];

  it.each(cases)('%s', async (name, expected) => {
    expect(await inspectReceipt(sample(name))).toMatchObject(expected);
  });

  it('extracts whitespace-normalised text, one line per text line, and the Info producer and creator', async () => {
    const facts = await inspectReceipt(sample('ok-1500.pdf'));
    expect(facts.text.split('\n')).toEqual(receiptLines({ amount: '1 500,00' }));
    expect(facts.producer).toBe('Sandbox Bank statements 2.1');
    expect(facts.creator).toBe('Sandbox Bank online');
  });

  it('leaves the caller’s bytes intact', async () => {
    const bytes = sample('ok-1500.pdf');
    const copy = bytes.slice();
    await inspectReceipt(bytes);
    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(Buffer.compare(bytes, copy)).toBe(0);
  });
});

describe('inspectReceipt: what makes a PDF', () => {
  it('goes by the magic bytes only', async () => {
    expect(isPdf(new TextEncoder().encode('%PDF-1.4'))).toBe(true);
    expect(isPdf(new TextEncoder().encode(' %PDF-1.4'))).toBe(false);
    expect(isPdf(new Uint8Array())).toBe(false);
    expect((await inspectReceipt(new TextEncoder().encode('Amount: 1500 RUB'))).kind).toBe('not_pdf');
    expect((await inspectReceipt(new Uint8Array())).kind).toBe('not_pdf');
    expect((await inspectReceipt(new TextEncoder().encode('%PDF-'))).kind).toBe('unreadable_pdf');
  });

  it('a PDF with 25 pages is unreadable; 20 pages is read', async () => {
    const pages = (n: number) => Array.from({ length: n }, (_, i) => [`Page ${i + 1}`, 'Amount: 1 500,00 RUB']);
    expect(await inspectReceipt(buildPdf({ pages: pages(25), info: BANK }))).toMatchObject({
      kind: 'unreadable_pdf',
      pages: 0,
    });
    expect(await inspectReceipt(buildPdf({ pages: pages(20), info: BANK }))).toMatchObject({
      kind: 'pdf',
      pages: 20,
      amounts: ['1500.00'],
    });
    expect((await inspectReceipt(buildPdf({ pages: pages(3), info: BANK }), { maxPages: 2 })).kind).toBe(
      'unreadable_pdf',
    );
  });

  it('a PDF over the size bound is unreadable', async () => {
    const bytes = sample('ok-1500.pdf');
    expect((await inspectReceipt(bytes, { maxBytes: bytes.byteLength - 1 })).kind).toBe('unreadable_pdf');
    expect((await inspectReceipt(bytes, { maxBytes: bytes.byteLength })).kind).toBe('pdf');
  });

  /** 20 full pages (48 lines of 80 characters each: about 77,000 characters) with an amount on the first and the last line. */
  const longText = () =>
    Array.from({ length: 20 }, (_, p) =>
      Array.from({ length: 48 }, (_, i) => {
        const fill = `Page ${p + 1}, line ${i + 1} of the statement `.padEnd(80, '.');
        if (p === 0 && i === 0) return 'Amount: 1 500,00 RUB';
        return p === 19 && i === 47 ? 'Total: 2000.00 RUB' : fill;
      }),
    );

  it(`a PDF with more text than the bound (default ${DEFAULT_MAX_TEXT_CHARS} characters) is unreadable`, async () => {
    const bytes = buildPdf({ pages: longText(), info: BANK });
    expect((await inspectReceipt(bytes, { maxTextChars: 50_000 })).kind).toBe('unreadable_pdf');
    expect((await inspectReceipt(bytes)).kind).toBe('pdf');
  });

  it('amounts anywhere in a long text are found, in order (the text is searched a block of lines at a time)', async () => {
    const facts = await inspectReceipt(buildPdf({ pages: longText(), info: BANK }));
    expect(facts.text.length).toBeGreaterThan(70_000);
    expect(facts.amounts).toEqual(['1500.00', '2000.00']);
  });
});

describe('inspectReceipt: a hostile PDF cannot hold the process', () => {
  it('a parse past its time budget is killed, the event loop keeps turning, and the next receipt is read', async () => {
    await inspectReceipt(sample('ok-1500.pdf')); // a warm reader, so the budget is the parse's alone
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const started = performance.now();
    const facts = await inspectReceipt(textBomb(20), { timeoutMs: 300 });
    const took = performance.now() - started;
    clearInterval(ticker);
    expect(facts.kind).toBe('unreadable_pdf');
    expect(took).toBeLessThan(3000); // in-thread this document takes over ten seconds
    expect(ticks).toBeGreaterThan(5);
    expect((await inspectReceipt(sample('ok-1500.pdf'))).kind).toBe('pdf');
  });

  it('an aborted inspection is unreadable: before it starts, while queued, while running', async () => {
    const before = new AbortController();
    before.abort();
    expect((await inspectReceipt(sample('ok-1500.pdf'), { signal: before.signal })).kind).toBe('unreadable_pdf');

    const running = new AbortController();
    const queued = new AbortController();
    // Every worker of the pool busy with a slow document; the next read waits for one.
    const slow = Array.from({ length: RECEIPT_CHECK_WORKERS }, () =>
      inspectReceipt(textBomb(20), { signal: running.signal, timeoutMs: 20_000 }),
    );
    const second = inspectReceipt(sample('ok-1500.pdf'), { signal: queued.signal });
    queued.abort();
    setTimeout(() => running.abort(), 50);
    for (const first of slow) expect((await first).kind).toBe('unreadable_pdf');
    expect((await second).kind).toBe('unreadable_pdf');
    expect((await inspectReceipt(sample('ok-1500.pdf'))).kind).toBe('pdf');
  });

  it(`receipts are read in a pool of ${RECEIPT_CHECK_WORKERS} workers: a slow one holds its worker only, another is read meanwhile`, async () => {
    const stop = new AbortController();
    let slowDone = false;
    const slow = inspectReceipt(textBomb(40), { signal: stop.signal, timeoutMs: 60_000 }).then(
      (f) => ((slowDone = true), f),
    );
    try {
      // With one shared worker this read would wait for the slow one: for its whole minute.
      const facts = await inspectReceipt(sample('ok-1500.pdf'));
      expect(facts.kind).toBe('pdf');
      expect(facts.amounts).toContain('1500.00');
      expect(slowDone).toBe(false);
    } finally {
      stop.abort();
    }
    expect((await slow).kind).toBe('unreadable_pdf');
  });

  it.runIf(process.platform === 'linux')(
    `the PDF workers run at a lower CPU priority than the event loop (nice ${PDF_WORKER_NICE})`,
    async () => {
      await inspectReceipt(sample('ok-1500.pdf'));
      const nice = (tid: string) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      const main = nice(String(process.pid));
      if (main >= PDF_WORKER_NICE) return; // the whole process already runs at that priority or lower
      expect(readdirSync('/proc/self/task').map(nice)).toContain(PDF_WORKER_NICE);
    },
  );

  it('receipts inspected concurrently each get their own facts', async () => {
    const names = ['ok-1500.pdf', 'ok-2000.pdf', 'mismatch-1499.pdf', 'broken.pdf', 'processing-1500.pdf'];
    const facts = await Promise.all(names.map((n) => inspectReceipt(sample(n))));
    expect(facts.map((f) => [f.kind, f.amounts[0] ?? null, f.in_progress])).toEqual([
      ['pdf', '1500.00', false],
      ['pdf', '2000.00', false],
      ['pdf', '1499.00', false],
      ['unreadable_pdf', null, false],
      ['pdf', '1500.00', true],
    ]);
  });
});

describe('inspectReceipt: forgery signals from the file', () => {
  const lines = receiptLines({ amount: '1 500,00' });

  it('ModDate later than CreationDate', async () => {
    const facts = await inspectReceipt(
      buildPdf({ pages: [lines], info: { ...BANK, ModDate: "D:20250115101500+03'00'" } }),
    );
    expect(facts.forgery).toEqual(['modified_after_creation']);
  });

  it('an incremental update after the fact (two %%EOF)', async () => {
    const facts = await inspectReceipt(
      buildPdf({ pages: [lines], info: BANK, update: { ...BANK, Producer: 'Sandbox Bank statements 2.1' } }),
    );
    expect(facts.kind).toBe('pdf');
    expect(facts.forgery).toEqual(['incremental_update']);
  });

  it('the updated Info dictionary is the one read', async () => {
    const facts = await inspectReceipt(
      buildPdf({ pages: [lines], info: BANK, update: { ...BANK, Producer: 'iLovePDF' } }),
    );
    expect(facts.producer).toBe('iLovePDF');
    expect(facts.forgery).toEqual(['edited_with:iLovePDF', 'incremental_update']);
  });

  it('the FORGED marker in the text', async () => {
    const facts = await inspectReceipt(buildPdf({ pages: [[...lines, 'FORGED']], info: BANK }));
    expect(facts.forgery).toEqual(['marker:FORGED']);
  });

  it('an editor named only in the XMP metadata', async () => {
    const xmp = [
      '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>',
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
      '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
      '<xmp:CreatorTool>Adobe Photoshop 25.0 (Windows)</xmp:CreatorTool>',
      '</rdf:Description></rdf:RDF></x:xmpmeta>',
      '<?xpacket end="w"?>',
    ].join('\n');
    const facts = await inspectReceipt(buildPdf({ pages: [lines], info: BANK, xmp }));
    expect(facts.producer).toBe('Sandbox Bank statements 2.1');
    expect(facts.forgery).toEqual(['edited_with:Adobe Photoshop']);
  });
});
