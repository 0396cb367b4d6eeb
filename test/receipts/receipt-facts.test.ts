// The pure text rules of receipt facts: amount parsing and discovery, "in progress" wording, forgery signals.
import { describe, expect, it } from 'vitest';
import {
  EDITOR_SIGNATURES,
  findAmounts,
  forgerySignals,
  isInProgress,
  parseAmount,
  parsePdfDate,
  type ForgeryEvidence,
} from '../../src/domain/receipt-facts.js';

describe('parseAmount', () => {
  it.each([
    ['1 500,00', '1500.00'],
    ['1500.00', '1500.00'],
    ['1,500.00', '1500.00'],
    ['1.500,00', '1500.00'],
    ['1500', '1500.00'],
    ['1 500.00', '1500.00'],
    ['1\u00a0500,00', '1500.00'],
    ['1\u202f500,00', '1500.00'],
    ["1'500.00", '1500.00'],
    ['1 234 567,89', '1234567.89'],
    ['1,50', '1.50'],
    ['1500,5', '1500.50'],
    ['1,500', '1500.00'],
    ['0,00', '0.00'],
    ['007', '7.00'],
  ])('%j → %s', (token, amount) => {
    expect(parseAmount(token)).toBe(amount);
  });

  it.each(['1.500.00', '1,500,00', '1 50,00', 'abc', '', '1 500 ,00', '12.345.6'])('%j is not an amount', (token) => {
    expect(parseAmount(token)).toBeNull();
  });
});

describe('findAmounts', () => {
  it.each([
    ['Amount: 1 500,00', ['1500.00']],
    ['Amount: 1500.00', ['1500.00']],
    ['Total 1,500.00 USD', ['1500.00']],
    ['Amount: 1500', ['1500.00']],
    ['RUB 1 500.00', ['1500.00']],
    ['Paid 1500 RUB', ['1500.00']],
    ['Сумма: 1 500,00 ₽', ['1500.00']],
    ['Итого 2 000 руб.', ['2000.00']],
    ['Сумма перевода 1500 рублей', ['1500.00']],
    ['$1,500.00', ['1500.00']],
    ['1\u00a0500,00\u00a0RUB', ['1500.00']],
    ['Amount: RUB 1 500,00', ['1500.00']],
  ])('%j → %j', (text, amounts) => {
    expect(findAmounts(text)).toEqual(amounts);
  });

  it('finds every amount, distinct, in text order', () => {
    const text = 'Amount: 1 500,00 RUB\nFee: 15,00 RUB\nTotal: 1 515,00 RUB\nAmount again: 1500.00 RUB';
    expect(findAmounts(text)).toEqual(['1500.00', '15.00', '1515.00']);
  });

  it('ignores numbers that are not money: dates, times, card masks, document numbers', () => {
    const text = [
      'Date: 14.01.2025 09:30:15',
      'Paid at 09:30 on 2025-01-14',
      'Sender card: 4276 **** **** 1234',
      'Document no. 000451872',
      'Summary page 2 of 3',
      'Rubles are great 100',
    ].join('\n');
    expect(findAmounts(text)).toEqual([]);
  });

  it('does not join numbers across lines', () => {
    expect(findAmounts('Card **** 1234\n500,00 RUB')).toEqual(['500.00']);
  });
});

describe('isInProgress', () => {
  it.each([
    'Status: processing',
    'Статус: В обработке',
    'Статус: исполняется',
    'Status: PENDING',
    'Status - in progress',
  ])('%j is in progress', (text) => expect(isInProgress(`Sandbox Bank\n${text}\nAmount: 1 RUB`)).toBe(true));

  it.each(['Status: Completed', 'Статус: Исполнен', 'Status: Done'])('%j is not', (text) => {
    expect(isInProgress(`Sandbox Bank\n${text}`)).toBe(false);
  });

  it('reads only status values when there are any', () => {
    expect(isInProgress('Processing centre: Sandbox Bank\nStatus: Completed')).toBe(false);
    expect(isInProgress('Processing centre: Sandbox Bank\nStatus: Completed\nСтатус: в обработке')).toBe(true);
  });

  it('reads the whole text when there is no status line', () => {
    expect(isInProgress('Your transfer is pending')).toBe(true);
    expect(isInProgress('Transfer completed')).toBe(false);
    expect(isInProgress('Unprocessingly odd word')).toBe(false);
  });
});

describe('parsePdfDate', () => {
  it.each([
    ["D:20250114093015+03'00'", Date.UTC(2025, 0, 14, 6, 30, 15)],
    ['D:20250114093015Z', Date.UTC(2025, 0, 14, 9, 30, 15)],
    ["D:20250114093015-05'30", Date.UTC(2025, 0, 14, 15, 0, 15)],
    ['D:20250114', Date.UTC(2025, 0, 14)],
    ['20250114093015', Date.UTC(2025, 0, 14, 9, 30, 15)],
  ])('%s', (s, ms) => expect(parsePdfDate(s)).toBe(ms));

  it('is null for nothing or nonsense', () => {
    expect(parsePdfDate(undefined)).toBeNull();
    expect(parsePdfDate('yesterday')).toBeNull();
  });
});

describe('forgerySignals', () => {
  const clean: ForgeryEvidence = {
    tools: ['Sandbox Bank statements 2.1', 'Sandbox Bank online'],
    creationDate: "D:20250114093015+03'00'",
    modDate: "D:20250114093015+03'00'",
    eofMarkers: 1,
    linearized: false,
    text: 'Amount: 1 500,00 RUB',
  };

  it('finds nothing on a clean receipt', () => {
    expect(forgerySignals(clean)).toEqual([]);
  });

  it.each([
    ['Adobe Photoshop 25.0', 'Adobe Photoshop'],
    ['GIMP 2.10', 'GIMP'],
    ['Adobe Illustrator 28.1', 'Adobe Illustrator'],
    ['Canva', 'Canva'],
    ['Wondershare PDF Editor 10', 'PDF Editor'],
    ['iLovePDF', 'iLovePDF'],
    ['Sejda PDF Desktop', 'Sejda'],
    ['Smallpdf.com', 'Smallpdf'],
  ])('names the editor in %j', (tool, name) => {
    expect(forgerySignals({ ...clean, tools: [undefined, tool] })).toEqual([`edited_with:${name}`]);
  });

  it('names an editor once even when several fields carry it', () => {
    expect(forgerySignals({ ...clean, tools: ['Adobe Photoshop 25.0', 'Adobe Photoshop 25.0 (Windows)'] })).toEqual([
      'edited_with:Adobe Photoshop',
    ]);
  });

  it('does not take look-alike words for editors', () => {
    expect(forgerySignals({ ...clean, tools: ['Glimpse reports', 'Canvas renderer 3'] })).toEqual([]);
  });

  it('flags a ModDate later than CreationDate, in absolute time', () => {
    expect(forgerySignals({ ...clean, modDate: "D:20250114093016+03'00'" })).toEqual(['modified_after_creation']);
    // the same instant written in another zone is not a modification
    expect(forgerySignals({ ...clean, modDate: 'D:20250114063015Z' })).toEqual([]);
    expect(forgerySignals({ ...clean, modDate: undefined })).toEqual([]);
  });

  it('flags an incremental update; a linearized file may have two %%EOF', () => {
    expect(forgerySignals({ ...clean, eofMarkers: 2 })).toEqual(['incremental_update']);
    expect(forgerySignals({ ...clean, eofMarkers: 2, linearized: true })).toEqual([]);
    expect(forgerySignals({ ...clean, eofMarkers: 3, linearized: true })).toEqual(['incremental_update']);
  });

  it('flags the FORGED marker as a whole, upper-case word', () => {
    expect(forgerySignals({ ...clean, text: 'Amount: 1 RUB\nFORGED' })).toEqual(['marker:FORGED']);
    expect(forgerySignals({ ...clean, text: 'forged by nobody; UNFORGEDX' })).toEqual([]);
  });

  it('lists signals in a stable order', () => {
    expect(
      forgerySignals({ ...clean, tools: ['iLovePDF', 'GIMP'], modDate: 'D:20260101', eofMarkers: 2, text: 'FORGED' }),
    ).toEqual([
      'edited_with:GIMP',
      'edited_with:iLovePDF',
      'modified_after_creation',
      'incremental_update',
      'marker:FORGED',
    ]);
  });

  it('every editor signature has a distinct name', () => {
    expect(new Set(EDITOR_SIGNATURES.map((e) => e.name)).size).toBe(EDITOR_SIGNATURES.length);
  });
});
