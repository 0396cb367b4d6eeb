// Receipt review: each sample's outcome (the table in fixtures/receipts/README.md), each rule on synthetic facts,
// the rule order, and that REVIEW_RULES documents every rule the review can return.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReceiptFacts } from '../../src/domain/receipt-facts.js';
import { REVIEW_RULES, reviewReceipt, type ReviewFacts, type ReviewOutcome } from '../../src/domain/receipt-review.js';
import { closePdfReader, inspectReceipt } from '../../src/emulator/receipts/inspect.js';

afterAll(() => closePdfReader());

const dir = fileURLToPath(new URL('../../fixtures/receipts/', import.meta.url));

/** file, expected amount, outcome — the same rows as fixtures/receipts/README.md. */
const SAMPLES: [string, string, ReviewOutcome][] = [
  ['ok-1500.pdf', '1500.00', { to: 'completed', amount: '1500.00', rule: 'amount_matches' }],
  ['ok-2000.pdf', '2000.00', { to: 'completed', amount: '2000.00', rule: 'amount_matches' }],
  ['ok-2000.pdf', '1500.00', { to: 'manual_check', reason: null, rule: 'amount_differs' }],
  ['fake-photoshop.pdf', '1500.00', { to: 'manual_check', reason: 'potential_fake', rule: 'forgery_signal' }],
  ['processing-1500.pdf', '1500.00', { to: 'manual_check', reason: 'not_terminal', rule: 'in_progress' }],
  ['mismatch-1499.pdf', '1500.00', { to: 'manual_check', reason: null, rule: 'amount_differs' }],
  ['no-amount.pdf', '1500.00', { to: 'manual_check', reason: 'potential_fake', rule: 'no_amount' }],
  ['not-a-pdf.png', '1500.00', { to: 'manual_check', reason: 'not_terminal', rule: 'not_pdf' }],
  ['broken.pdf', '1500.00', { to: 'manual_check', reason: 'not_terminal', rule: 'unreadable_pdf' }],
];

/** How the README writes an outcome. */
function readmeOutcome(o: ReviewOutcome): string {
  if (o.to === 'completed') return `completed ${o.amount} (\`${o.rule}\`)`;
  return o.reason === null ? `manual_check, reason null (\`${o.rule}\`)` : `manual_check ${o.reason} (\`${o.rule}\`)`;
}

describe('reviewReceipt on the samples', () => {
  it.each(SAMPLES)('%s against %s', async (file, amount, outcome) => {
    const facts = await inspectReceipt(new Uint8Array(readFileSync(`${dir}${file}`)));
    expect(reviewReceipt(facts, { amount })).toEqual(outcome);
  });

  it('the README table says the same', () => {
    const rows = readFileSync(`${dir}README.md`, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split('|').map((c) => c.trim()));
    expect(rows.map((r) => [r[1], r[3], r[4]])).toEqual(SAMPLES.map(([f, a, o]) => [`\`${f}\``, a, readmeOutcome(o)]));
  });
});

describe('reviewReceipt rules', () => {
  const clean: ReviewFacts = { kind: 'pdf', amounts: ['1500.00', '0.00'], forgery: [], in_progress: false };
  const expected = { amount: '1500.00' };

  const cases: [string, Partial<ReviewFacts>, ReviewOutcome][] = [
    ['not a PDF', { kind: 'not_pdf', amounts: [] }, { to: 'manual_check', reason: 'not_terminal', rule: 'not_pdf' }],
    [
      'unreadable PDF',
      { kind: 'unreadable_pdf', amounts: [] },
      { to: 'manual_check', reason: 'not_terminal', rule: 'unreadable_pdf' },
    ],
    [
      'a forgery signal',
      { forgery: ['modified_after_creation'] },
      { to: 'manual_check', reason: 'potential_fake', rule: 'forgery_signal' },
    ],
    ['in progress', { in_progress: true }, { to: 'manual_check', reason: 'not_terminal', rule: 'in_progress' }],
    ['no amount', { amounts: [] }, { to: 'manual_check', reason: 'potential_fake', rule: 'no_amount' }],
    [
      'the expected amount among others',
      { amounts: ['10.00', '1500.00'] },
      { to: 'completed', amount: '1500.00', rule: 'amount_matches' },
    ],
    ['only a different amount', { amounts: ['1499.99'] }, { to: 'manual_check', reason: null, rule: 'amount_differs' }],
  ];

  it.each(cases)('%s', (_name, patch, outcome) => {
    expect(reviewReceipt({ ...clean, ...patch }, expected)).toEqual(outcome);
  });

  it('the first matching rule decides', () => {
    // a non-PDF is never a fraud signal, even with signals attached
    expect(reviewReceipt({ ...clean, kind: 'not_pdf', forgery: ['marker:FORGED'] }, expected).rule).toBe('not_pdf');
    // forgery beats in-progress, in-progress beats a missing amount, a missing amount beats everything after
    expect(reviewReceipt({ ...clean, forgery: ['x'], in_progress: true }, expected).rule).toBe('forgery_signal');
    expect(reviewReceipt({ ...clean, in_progress: true, amounts: [] }, expected).rule).toBe('in_progress');
    // a forged receipt showing the right amount is still not completed
    expect(reviewReceipt({ ...clean, forgery: ['edited_with:GIMP'] }, expected).to).toBe('manual_check');
  });

  it('compares amounts at scale 2', () => {
    expect(reviewReceipt({ ...clean, amounts: ['1500.00'] }, { amount: '1500' })).toEqual({
      to: 'completed',
      amount: '1500.00',
      rule: 'amount_matches',
    });
    expect(reviewReceipt({ ...clean, amounts: ['1500.00'] }, { amount: '1500.001' }).rule).toBe('amount_differs');
  });

  it('takes full ReceiptFacts as they come from the inspector', () => {
    const facts: ReceiptFacts = { ...clean, text: 'Amount: 1500 RUB', pages: 1 };
    expect(reviewReceipt(facts, expected).to).toBe('completed');
  });
});

describe('REVIEW_RULES', () => {
  it('lists every rule once, in decision order', () => {
    expect(REVIEW_RULES.map((r) => r.rule)).toEqual([
      'not_pdf',
      'unreadable_pdf',
      'forgery_signal',
      'in_progress',
      'no_amount',
      'amount_matches',
      'amount_differs',
    ]);
    for (const r of REVIEW_RULES) {
      expect(r.when).not.toBe('');
      expect(r.outcome).not.toBe('');
    }
  });

  it('covers each rule the review returned on the samples and the synthetic facts', async () => {
    const documented = new Set(REVIEW_RULES.map((r) => r.rule));
    const used = new Set(SAMPLES.map(([, , o]) => o.rule));
    for (const r of used) expect(documented).toContain(r);
    expect([...documented].filter((r) => !used.has(r))).toEqual([]);
  });

  it('describes each outcome the way the review decides it', () => {
    const byRule = new Map(SAMPLES.map(([, , o]) => [o.rule, o]));
    for (const r of REVIEW_RULES) {
      const o = byRule.get(r.rule);
      expect(o, r.rule).toBeDefined();
      if (!o) continue;
      if (o.to === 'completed') expect(r.outcome).toMatch(/^completed/);
      else expect(r.outcome).toMatch(new RegExp(`^manual_check, ${o.reason === null ? 'reason null' : o.reason}`));
    }
  });
});
