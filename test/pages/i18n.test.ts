// The page's language and formatting rules, and how it reads an amount the payer typed.
import { describe, expect, it } from 'vitest';
import { formatMoney, groupNumber, negotiate, t } from '../../src/emulator/pages/i18n.js';
import { MESSAGES } from '../../src/emulator/pages/messages.js';
import { parseAmount } from '../../src/emulator/pages/picker.js';

describe('hosted page language and formats', () => {
  it('chooses ru or en: ?lang first, then Accept-Language by quality, else English', () => {
    expect(negotiate('ru', 'en')).toBe('ru');
    expect(negotiate('de', 'ru-RU,ru;q=0.9')).toBe('ru');
    expect(negotiate(null, 'de-DE, en;q=0.5, ru;q=0.7')).toBe('ru');
    expect(negotiate(null, 'ru;q=0, en-US')).toBe('en');
    expect(negotiate(null, 'fr, de')).toBe('en');
    expect(negotiate(null, null)).toBe('en');
  });

  it('formats exact decimal amounts for the language, and a currency Intl does not know by its code', () => {
    expect(formatMoney('ru', '1500.00', 'RUB')).toBe('1\u00a0500,00\u00a0₽');
    expect(formatMoney('en', '1500.5', 'RUB')).toBe('₽1,500.50');
    expect(formatMoney('en', '90071992547409.93', 'RUB')).toBe('₽90,071,992,547,409.93');
    expect(formatMoney('en', '10.00', 'USDT')).toBe('10.00\u00a0USDT');
  });

  it('groups card and phone numbers for reading, and leaves anything else as it is', () => {
    expect(groupNumber('2200701299215621', 'card')).toBe('2200 7012 9921 5621');
    expect(groupNumber('+79001234567', 'phone')).toBe('+7 900 123-45-67');
    expect(groupNumber('12-34', 'card')).toBe('12-34');
  });

  it('escapes what it fills in, and has every text in both languages', () => {
    expect(t('en', 'lead.paid', { amount: '<b>' })).toContain('&#60;b&#62;');
    expect(Object.keys(MESSAGES.ru).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const [k, v] of Object.entries(MESSAGES.ru))
      expect(v.match(/\{\w+\}/g) ?? [], k).toEqual(MESSAGES.en[k as keyof typeof MESSAGES.en].match(/\{\w+\}/g) ?? []);
  });

  it('reads an amount as a payer types it', () => {
    expect(parseAmount('1 500,5')).toBe('1500.50');
    expect(parseAmount('1500.50 ₽')).toBe('1500.50');
    expect(parseAmount('\u00a024\u202f500')).toBe('24500.00');
    for (const bad of [null, '', 'abc', '1.234', '-5', '0', '0,00', '1e3', '1,500.00'])
      expect(parseAmount(bad), String(bad)).toBeUndefined();
  });
});
