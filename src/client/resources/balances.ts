// client.balances: the shop's balances per currency (spec §4.8).
import type { APIPromise } from '../api-promise.js';
import type { PaygateCore, RequestOptions, ResponseOf } from '../core.js';

export class Balances {
  readonly #core: PaygateCore;

  constructor(core: PaygateCore) {
    this.#core = core;
  }

  /** GET /v1/balances: one row per supported currency of the key's shop, zero rows included. */
  list(options?: RequestOptions): APIPromise<ResponseOf<'balances.list'>> {
    return this.#core.request('balances.list', {}, options);
  }
}
