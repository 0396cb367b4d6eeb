// client.payouts: create an outbound payout (spec §4.4).
import type { CreateOperationInput } from './payments.js';
import { create, resource } from './resource.js';

export class Payouts extends resource({
  /**
   * POST /v1/payout. Usually answers `pending`; the terminal status arrives by webhook.
   * `.withResponse()` also gives the `merchant_operation_id` that was sent (generated when omitted).
   */
  'payout.create': create<CreateOperationInput>(),
}) {}
