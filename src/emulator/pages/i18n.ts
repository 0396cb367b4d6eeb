// The page's language and formatting: Russian or English, chosen by `?lang=` (the switch on the page) or else by
// Accept-Language; every amount and date formatted for it with Intl; card and phone numbers grouped for reading.
import { MESSAGES, type MessageKey } from './messages.js';

export type Lang = 'ru' | 'en';
export const LANGS: readonly Lang[] = ['ru', 'en'];

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The language of a request: `?lang=ru|en` when given, else the first of ru / en in Accept-Language by quality
 * (`ru-RU;q=0.9` counts as ru), else English.
 */
export function negotiate(query: string | null, acceptLanguage: string | null): Lang {
  if (query === 'ru' || query === 'en') return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((x) => x.q > 0 && !Number.isNaN(x.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.map((x) => x.lang).find((l): l is Lang => l === 'ru' || l === 'en') ?? 'en';
}

/** The text of `key` in `lang`, its `{name}` placeholders filled with `vars` (escaped). The result is HTML. */
export function t(lang: Lang, key: MessageKey, vars: Record<string, string> = {}): string {
  return fill(MESSAGES[lang][key], vars);
}

/** `text` escaped, its `{name}` placeholders filled with `vars` (escaped): HTML (the dashboard's texts use it too). */
export function fill(text: string, vars: Record<string, string> = {}): string {
  return esc(text).replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? esc(vars[name]!) : m));
}

const moneyFormats = new Map<string, (amount: string) => string>();

/** `1500.00` RUB → `1 500,00 ₽` (ru) or `₽1,500.00` (en): the exact decimal string, never a float. */
export function formatMoney(lang: Lang, amount: string, currency: string): string {
  const key = `${lang}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    // Intl formats a decimal string exactly (ES2023 Intl.NumberFormat v3); the type still says number.
    try {
      const f = new Intl.NumberFormat(lang, {
        style: 'currency',
        currency,
        currencyDisplay: 'narrowSymbol',
        ...digits,
      });
      format = (a) => f.format(a as unknown as number);
    } catch {
      // Not an ISO 4217 code Intl knows (USDT): the number for the language, then the code.
      const f = new Intl.NumberFormat(lang, digits);
      format = (a) => `${f.format(a as unknown as number)}\u00a0${currency}`;
    }
    moneyFormats.set(key, format);
  }
  return format(amount);
}

/** A moment in UTC for the page without script (the script shows it in the payer's own time zone). */
export function formatUtc(lang: Lang, iso: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

/** `2200701299215621` → `2200 7012 9921 5621`; a Russian phone `+79001234567` → `+7 900 123-45-67`. */
export function groupNumber(number: string, rail: 'card' | 'phone'): string {
  const digits = number.replace(/\D/g, '');
  if (rail === 'phone') {
    const m = /^(7|8)(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(digits);
    return m ? `+7 ${m[2]} ${m[3]}-${m[4]}-${m[5]}` : number;
  }
  return /^\d{12,19}$/.test(digits) ? digits.replace(/(\d{4})(?=\d)/g, '$1 ') : number;
}
