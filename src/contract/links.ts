// Schemas of the flexible payment link (spec §4.3, §2.6).
import { z } from 'zod';
import { RequestAmount, Timestamp, Uuid } from './money.js';
import { CreateOperationRequest, LinkOperation } from './operations.js';

/** Body of POST /v1/payment/link/flexible: the create body with amount replaced by recommended_amount, plus bounds. */
export const FlexibleLinkRequest = CreateOperationRequest.omit({ amount: true })
  .extend({
    recommended_amount: RequestAmount,
    min_amount: RequestAmount.optional(),
    max_amount: RequestAmount.optional(),
  })
  .meta({ id: 'FlexibleLinkRequest' });
export type FlexibleLinkRequest = z.input<typeof FlexibleLinkRequest>;

/** The amount_selection (or rejected) answer of the flexible link (spec §2.6). */
export const AmountSelection = z
  .object({
    operation_id: Uuid,
    status: z.enum(['amount_selection', 'rejected']),
    method: z.string(),
    currency: z.string(),
    recommended_amount: z.string(),
    payment_url: z.string().nullable(),
    expires_at: Timestamp.optional(),
  })
  .meta({ id: 'AmountSelection' });
export type AmountSelection = z.infer<typeof AmountSelection>;

/** Response of the flexible link: an operation (created now) or an amount selection / rejection. */
export const FlexibleLinkResponse = z
  .union([LinkOperation, AmountSelection])
  .meta({ id: 'FlexibleLinkResponse' });
export type FlexibleLinkResponse = z.infer<typeof FlexibleLinkResponse>;

