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
  const h = hash('sha256', `${opId}/requisites`, 'buffer');
  let digits = '';
  for (let i = 0; i < 9; i++) digits += String(h[i]! % 10);
  const name = HOLDERS[h.readUInt32BE(12) % HOLDERS.length]!;
  if (method.rail === 'phone') {
    const codes = provider.inbound_banks.filter((c) => banks.get(c)?.currency === method.currency);
    const bank = codes.length > 0 ? codes[h.readUInt32BE(16) % codes.length] : undefined;
    return { number: `+79${digits}`, name, ...(bank ? { bankname: bank } : {}) };
  }
  const payload = `220070${digits}`;
  return { number: payload + luhnCheckDigit(payload), name };
}
