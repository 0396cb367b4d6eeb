// Schemas of the flexible payment link (spec §4.3, §2.6).
import { z } from 'zod';
import { PositiveDecimalText, RequestAmount, Timestamp, Uuid } from './money.js';
import { CreateOperationRequest, LinkOperation } from './operations.js';

/** Body of POST /v1/payment/link/flexible: the create body with amount replaced by recommended_amount, plus bounds. */
export const FlexibleLinkRequest = CreateOperationRequest.omit({ amount: true })
  .extend({
    recommended_amount: RequestAmount.meta({
      description: 'The amount offered first; within the bounds that are set.',
      examples: ['1500.00'],
    }),
    min_amount: RequestAmount.optional().meta({
      description: 'Lowest amount the payer may be offered.',
      examples: ['1000.00'],
    }),
    max_amount: RequestAmount.optional().meta({
      description: 'Highest amount the payer may be offered.',
      examples: ['2000.00'],
    }),
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
    recommended_amount: PositiveDecimalText.meta({ description: 'Echo of the request value, at scale 2.' }),
    payment_url: z
      .string()
      .nullable()
      .meta({ format: 'uri', description: 'The hosted page with its k credential (a secret); null when rejected.' }),
    expires_at: Timestamp.optional(),
  })
  .meta({ id: 'AmountSelection' });
export type AmountSelection = z.infer<typeof AmountSelection>;

/** Response of the flexible link: an operation (created now) or an amount selection / rejection. */
export const FlexibleLinkResponse = z.union([LinkOperation, AmountSelection]).meta({ id: 'FlexibleLinkResponse' });
export type FlexibleLinkResponse = z.infer<typeof FlexibleLinkResponse>;
