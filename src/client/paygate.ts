// The Paygate client: the transport core plus one thin resource object per area of the API.
import { PaygateCore, type ClientOptions } from './core.js';
import { Balances } from './resources/balances.js';
import { Health } from './resources/health.js';
import { Operations } from './resources/operations.js';
import { Payments } from './resources/payments.js';
import { Payouts } from './resources/payouts.js';
import { SandboxControls } from './resources/sandbox.js';

/**
 * Typed client of the payment gateway (and of the paygate sandbox).
 *
 * ```ts
 * const client = new Paygate({ baseUrl: 'http://127.0.0.1:4010', apiKey });
 * const op = await client.payments.create({ client_id: 'c1', method: 'WT_RUB_C2C', amount: '100.00', currency: 'RUB' });
 * ```
 */
export class Paygate extends PaygateCore {
  readonly payments: Payments;
  readonly payouts: Payouts;
  readonly operations: Operations;
  readonly balances: Balances;
  readonly health: Health;
  /** The paygate sandbox's control API (/sandbox): not part of the gateway; a real gateway answers 404. */
  readonly sandbox: SandboxControls;

  constructor(options: ClientOptions) {
    super(options);
    this.payments = new Payments(this);
    this.payouts = new Payouts(this);
    this.operations = new Operations(this);
    this.balances = new Balances(this);
    this.health = new Health(this);
    this.sandbox = new SandboxControls(this);
  }
}
