// Receipt facts: the shape a receipt inspector produces and the pure text rules behind it — money amounts,
// "still in progress" wording and forgery signals. No PDF parsing here (that is emulator/receipts/inspect.ts).

/** What the inspector could make of an uploaded receipt file. */
export type ReceiptKind = 'pdf' | 'not_pdf' | 'unreadable_pdf';

/** Facts extracted from one uploaded receipt; the input of `reviewReceipt`. */
export interface ReceiptFacts {
  kind: ReceiptKind;
  /** Extracted text (pdf only): one line per text line, runs of whitespace collapsed to one space, no empty lines. */
  text: string;
  /** Every money amount found in the text, as scale-2 decimal strings, distinct, in order of first appearance. */
  amounts: string[];
  /** Document info Producer, when present. */
  producer?: string;
  /** Document info Creator, when present. */
  creator?: string;
  /** Forgery signals found, e.g. 'edited_with:Adobe Photoshop', 'modified_after_creation', 'marker:FORGED'. */
  forgery: string[];
  /** The receipt says the transfer is still being processed. */
  in_progress: boolean;
  /** Page count (0 unless kind is pdf). */
  pages: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Amounts

/** Words that introduce an amount ("Amount: 1 500,00"). Matched case-insensitively as whole words. */
export const AMOUNT_LABELS: readonly string[] = [
  'amount',
  'sum',
  'total',
  'paid',
  'сумма',
  'итого',
  'к оплате',
  'оплачено',
  'списано',
  'зачислено',
];

/** Currency codes and signs that mark a number as money when right before or after it. */
export const CURRENCY_MARKERS: readonly string[] = [
  'RUB',
  'RUR',
  'USD',
  'EUR',
  'KZT',
  'UZS',
  'BYN',
  'рублей',
  'рубля',
  'рубль',
  'руб.',
  'руб',
  'р.',
  '₽',
  '$',
  '€',
  '₸',
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Thousands separators: space, no-break space, narrow no-break space, thin space, dot, comma, apostrophe. */
const GROUP_SEP = "[ \\u00a0\\u202f\\u2009.,']";
/** A number as printed on a receipt, not part of a date, time or longer number; separators are checked by parseAmount. */
const NUMBER = `(?<![\\d.,:/])(?:\\d{1,3}(?:${GROUP_SEP}\\d{3})+|\\d+)(?:[.,]\\d{1,2})?(?!\\d|[.,:/\\-]\\d)`;
const LETTER_BEFORE = '(?<![\\p{L}\\p{N}])';
const LETTER_AFTER = '(?![\\p{L}\\p{N}])';
const CURRENCY = `(?:${[...CURRENCY_MARKERS]
  .sort((a, b) => b.length - a.length)
  .map((m) => (/^\p{L}/u.test(m) ? `${LETTER_BEFORE}${escape(m)}` : escape(m)))
  .join('|')})`;
const LABEL = `${LETTER_BEFORE}(?:${AMOUNT_LABELS.map(escape).join('|')})${LETTER_AFTER}`;

/** An amount after a label ("Amount: 1 500,00", "Сумма (RUB): 1500"), before a currency, or after one. */
const AMOUNT_IN_CONTEXT = new RegExp(
  [
    `${LABEL}[^\\d\\n]{0,24}?(${NUMBER})`,
    `(${NUMBER})[ \\u00a0]?${CURRENCY}(?![\\p{L}])`,
    `${CURRENCY}[ \\u00a0]?(${NUMBER})`,
  ].join('|'),
  'giu',
);

const AMOUNT_TOKEN = new RegExp(`^(\\d{1,3}(?:(${GROUP_SEP})\\d{3})(?:\\2\\d{3})*|\\d+)(?:([.,])(\\d{1,2}))?$`, 'u');

/**
 * Normalise one printed number to a scale-2 decimal string: "1 500,00", "1500.00", "1,500.00", "1.500,00",
 * "1500" → "1500.00". A separator followed by exactly three digits is a thousands separator, by one or two digits
 * a decimal mark; mixed or repeated-decimal forms return null.
 */
export function parseAmount(token: string): string | null {
  const m = AMOUNT_TOKEN.exec(token.trim());
  if (!m) return null;
  const [, whole = '', group, decimalMark, fraction] = m;
  if (group !== undefined && group === decimalMark) return null;
  const digits = group === undefined ? whole : whole.split(group).join('');
  const int = digits.replace(/^0+(?=\d)/, '');
  return `${int}.${(fraction ?? '').padEnd(2, '0')}`;
}

/** Every money amount in `text` (a label, a currency code or sign next to a number), distinct, in text order. */
export function findAmounts(text: string): string[] {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    for (const m of line.matchAll(AMOUNT_IN_CONTEXT)) {
      const token = m[1] ?? m[2] ?? m[3];
      const amount = token === undefined ? null : parseAmount(token);
      if (amount !== null) found.add(amount);
    }
  }
  return [...found];
}

// ---------------------------------------------------------------------------------------------------------------
// Still in progress

/** Wording that says the transfer is not finished yet. Matched case-insensitively as whole words. */
export const IN_PROGRESS_MARKERS: readonly string[] = [
  'в обработке',
  'обрабатывается',
  'исполняется',
  'выполняется',
  'в процессе',
  'ожидает',
  'processing',
  'pending',
  'in progress',
  'in process',
];

const IN_PROGRESS = new RegExp(`${LETTER_BEFORE}(?:${IN_PROGRESS_MARKERS.map(escape).join('|')})${LETTER_AFTER}`, 'iu');
const STATUS_LINE = new RegExp(`${LETTER_BEFORE}(?:status|статус|состояние)${LETTER_AFTER}[ :\\-–—]*([^\\n]*)`, 'giu');

/**
 * Whether the receipt says the transfer is still in progress. When the text has status lines ("Status: …"),
 * only their values count, so "Processing centre: …" on a completed receipt does not; otherwise the whole text.
 */
export function isInProgress(text: string): boolean {
  const statuses = [...text.matchAll(STATUS_LINE)].map((m) => m[1] ?? '');
  return statuses.length > 0 ? statuses.some((s) => IN_PROGRESS.test(s)) : IN_PROGRESS.test(text);
}

// ---------------------------------------------------------------------------------------------------------------
// Forgery signals

/** Editors whose name in the Producer/Creator (or XMP creator tool) marks a hand-edited receipt. */
export const EDITOR_SIGNATURES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'Adobe Photoshop', pattern: /photoshop/i },
  { name: 'Adobe Illustrator', pattern: /illustrator/i },
  { name: 'GIMP', pattern: /\bgimp\b/i },
  { name: 'Inkscape', pattern: /inkscape/i },
  { name: 'Canva', pattern: /\bcanva\b/i },
  { name: 'PDF Editor', pattern: /pdf[\s-]*editor/i },
  { name: 'iLovePDF', pattern: /ilovepdf/i },
  { name: 'Sejda', pattern: /sejda/i },
  { name: 'Smallpdf', pattern: /small\s*pdf/i },
  { name: 'PDFescape', pattern: /pdf\s*escape/i },
  { name: 'PDFfiller', pattern: /pdf\s*filler/i },
  { name: 'Foxit PhantomPDF', pattern: /phantompdf/i },
  { name: 'PDF-XChange Editor', pattern: /pdf-?xchange/i },
  { name: 'Soda PDF', pattern: /soda\s*pdf/i },
  { name: 'PDF Candy', pattern: /pdf\s*candy/i },
  { name: 'Pixelmator', pattern: /pixelmator/i },
  { name: 'Paint.NET', pattern: /paint\.net/i },
];

/** Words in the receipt text that mark a forgery outright (case-sensitive, whole word). */
export const FORGERY_TEXT_MARKERS: readonly string[] = ['FORGED'];

/** The raw evidence forgery signals are derived from. */
export interface ForgeryEvidence {
  /** Info Producer, Info Creator, XMP CreatorTool/Producer — any tool name the file carries. */
  tools: readonly (string | undefined)[];
  /** Info CreationDate / ModDate as written in the file (PDF date strings, "D:YYYYMMDDHHmmSS+HH'mm'"). */
  creationDate?: string;
  modDate?: string;
  /** How many `%%EOF` markers the file has; more than one (two for a linearized file) means it was updated after the fact. */
  eofMarkers: number;
  linearized: boolean;
  text: string;
}

/** Parse a PDF date string ("D:20250114093015+03'00'", parts after the year optional) to epoch ms, or null. */
export function parsePdfDate(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz])|([+-])(\d{2})'?(?:(\d{2})'?)?)?/.exec(
    value.trim(),
  );
  if (!m) return null;
  const n = (s: string | undefined, dflt: number) => (s === undefined ? dflt : Number(s));
  const utc = Date.UTC(n(m[1], 0), n(m[2], 1) - 1, n(m[3], 1), n(m[4], 0), n(m[5], 0), n(m[6], 0));
  const offsetMin = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (n(m[9], 0) * 60 + n(m[10], 0));
  const ms = utc - offsetMin * 60_000;
  return Number.isFinite(ms) ? ms : null;
}

/** Forgery signals, in a stable order: edited_with:<editor>…, modified_after_creation, incremental_update, marker:<word>…. */
export function forgerySignals(e: ForgeryEvidence): string[] {
  const signals: string[] = [];
  for (const editor of EDITOR_SIGNATURES) {
    if (e.tools.some((t) => t !== undefined && editor.pattern.test(t))) signals.push(`edited_with:${editor.name}`);
  }
  const created = parsePdfDate(e.creationDate);
  const modified = parsePdfDate(e.modDate);
  if (created !== null && modified !== null && modified > created) signals.push('modified_after_creation');
  if (e.eofMarkers > (e.linearized ? 2 : 1)) signals.push('incremental_update');
  for (const word of FORGERY_TEXT_MARKERS) {
    if (new RegExp(`${LETTER_BEFORE}${escape(word)}${LETTER_AFTER}`, 'u').test(e.text)) signals.push(`marker:${word}`);
  }
  return signals;
}
