// client.balances: the shop's balances per currency (spec §4.8).
import { call, resource } from './resource.js';

export class Balances extends resource({
  /** GET /v1/balances: one row per supported currency of the key's shop, zero rows included. */
  'balances.list': call(0),
}) {}
