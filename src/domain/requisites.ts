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

export function allocateRequisites(opId: string, method: MethodDef, provider: ProviderDef, banks: ReadonlyMap<string, BankDef>): Destination {
  // One digest feeds every choice: the first 12 bytes give nine digits, then the holder, then the bank.
  // As hex (no Buffer): byte i is the 2 digits at 2i, a big-endian 32-bit word the 8 at 2i.
  const h = hash('sha256', `${opId}/requisites`, 'hex');
  let digits = '';
  for (let i = 0; i < 18; i += 2) digits += parseInt(h.slice(i, i + 2), 16) % 10;
  const name = HOLDERS[parseInt(h.slice(24, 32), 16) % HOLDERS.length]!;
  if (method.rail === 'phone') {
    const codes = provider.inbound_banks.filter((c) => banks.get(c)?.currency === method.currency);
    const bank = codes.length > 0 ? codes[parseInt(h.slice(32, 40), 16) % codes.length] : undefined;
    return { number: `+79${digits}`, name, ...(bank ? { bankname: bank } : {}) };
  }
  const payload = `220070${digits}`;
  return { number: payload + luhnCheckDigit(payload), name };
}
