// Inbound requisites the simulated providers allocate to a payment: a card number (valid Luhn) or a phone
// number with a bank, derived from the operation id so they are stable across runs.
import type { Destination } from './operation.js';
import type { BankDef, MethodDef, ProviderDef } from './world.js';
import { hash } from 'node:crypto';

const HOLDERS = ['IVAN PETROV', 'ANNA SMIRNOVA', 'OLEG VOLKOV', 'MARIA KUZNETSOVA', 'PAVEL ORLOV', 'ELENA SOKOLOVA'];

export function luhnCheckDigit(payload: string): string {
  let total = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return String((10 - (total % 10)) % 10);
}

/** The value of a lowercase hex digit's char code. */
function nibble(c: number): number {
  return c < 97 ? c - 48 : c - 87;
}

/** Byte `i` of a lowercase hex string. */
function byteAt(hex: string, i: number): number {
  return nibble(hex.charCodeAt(2 * i)) * 16 + nibble(hex.charCodeAt(2 * i + 1));
}

/** The big-endian 32-bit word at byte `i` of a lowercase hex string. */
function word(hex: string, i: number): number {
  return ((byteAt(hex, i) * 256 + byteAt(hex, i + 1)) * 256 + byteAt(hex, i + 2)) * 256 + byteAt(hex, i + 3);
}

export function allocateRequisites(
  opId: string,
  method: MethodDef,
  provider: ProviderDef,
  banks: ReadonlyMap<string, BankDef>,
): Destination {
  // One digest feeds every choice: the first 12 bytes give nine digits, then the holder, then the bank.
  // Read from the hex digest (no Buffer): byte i is its digits 2i and 2i + 1.
  const h = hash('sha256', `${opId}/requisites`, 'hex');
  let digits = '';
  for (let i = 0; i < 9; i++) digits += byteAt(h, i) % 10;
  const name = HOLDERS[word(h, 12) % HOLDERS.length]!;
  if (method.rail === 'phone') {
    const codes = provider.inbound_banks.filter((c) => banks.get(c)?.currency === method.currency);
    const bank = codes.length > 0 ? codes[word(h, 16) % codes.length] : undefined;
    return { number: `+79${digits}`, name, ...(bank ? { bankname: bank } : {}) };
  }
  const payload = `220070${digits}`;
  return { number: payload + luhnCheckDigit(payload), name };
}
