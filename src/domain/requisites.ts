// Inbound requisites the simulated providers allocate to a payment: a card number (valid Luhn) or a phone
// number with a bank, derived from the operation id so they are stable across runs.
import type { Destination } from './operation.js';
import type { BankDef, MethodDef, ProviderDef } from './world.js';
import { digitsFrom, pickFrom } from './ids.js';

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
  const name = pickFrom(`${opId}/holder`, HOLDERS);
  if (method.rail === 'phone') {
    const codes = provider.inbound_banks.filter((c) => banks.get(c)?.currency === method.currency);
    const bank = codes.length > 0 ? pickFrom(`${opId}/bank`, codes) : undefined;
    return { number: `+79${digitsFrom(`${opId}/phone`, 9)}`, name, ...(bank ? { bankname: bank } : {}) };
  }
  const payload = `220070${digitsFrom(`${opId}/card`, 9)}`;
  return { number: payload + luhnCheckDigit(payload), name };
}
