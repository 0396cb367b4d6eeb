// What `paygate verify` may create on the gateway it checks: at most `maxCreates` requests that could create an
// operation, adding up to at most `maxAmount`. Every request to a create endpoint that carries a positive amount is
// charged before it is sent — a probe the gateway should refuse too, since a drifting gateway might accept it.
import { Decimal } from 'decimal.js';

/** Default cap on the requests that could create an operation. */
export const DEFAULT_MAX_CREATES = 8;
/** Default cap on the total amount of those requests, in the currency checked. */
export const DEFAULT_MAX_AMOUNT = '500.00';
/** Default amount of each payment verify creates. */
export const DEFAULT_AMOUNT = '100.00';

export class Budget {
  #creates = 0;
  #amount = new Decimal(0);

  constructor(
    readonly maxCreates: number,
    readonly maxAmount: Decimal,
  ) {}

  get creates(): number {
    return this.#creates;
  }

  get amount(): Decimal {
    return this.#amount;
  }

  /** Charges one create of `amount` (a decimal string) and says true, or says false when it would pass a cap. */
  charge(amount: string): boolean {
    let value: Decimal;
    try {
      value = new Decimal(amount);
    } catch {
      return true; // not a number: no gateway can create an operation of it
    }
    if (!value.isFinite() || value.lte(0)) return true;
    if (this.#creates + 1 > this.maxCreates || this.#amount.plus(value).gt(this.maxAmount)) return false;
    this.#creates += 1;
    this.#amount = this.#amount.plus(value);
    return true;
  }
}
