// Schemas of GET /v1/balances (spec §2.5, §4.8).
import { z } from 'zod';
import { SignedWireAmount, WireAmount } from './money.js';

export const BalanceRow = z
  .object({
    currency: z.string().meta({ examples: ['RUB'] }),
    balance: SignedWireAmount.meta({ description: 'Credit-natural balance; negative when overdrawn.' }),
    current_minus: WireAmount.meta({ description: 'max(-(balance + reserved), 0).' }),
    reserved: WireAmount.meta({ description: 'Reserved for in-flight payouts.' }),
  })
  .meta({ id: 'BalanceRow' });
export type BalanceRow = z.infer<typeof BalanceRow>;

export const BalancesResponse = z.object({ balances: z.array(BalanceRow) }).meta({ id: 'BalancesResponse' });
export type BalancesResponse = z.infer<typeof BalancesResponse>;
