// Schemas of amount availability and recommendations (spec §2.7, §4.9, §4.10).
import { z } from 'zod';
import { typeError } from './echo.js';
import { Currency, NonEmpty, PositiveDecimalText, RequestAmount, SignedDecimalText, Timestamp } from './money.js';
import { scopeFields } from './operations.js';

/** The most intervals an availability or recommendations answer carries (spec §8). */
export const MAX_INTERVALS = 200;

export const Interval = z
  .object({ min_amount: PositiveDecimalText, max_amount: PositiveDecimalText })
  .meta({ id: 'Interval', description: 'Both ends inclusive.' });
export type Interval = z.infer<typeof Interval>;

export const Coverage = z.enum(['full', 'partial', 'none']);

/** Query of GET /v1/payment/availability; every parameter is required. */
const amountsMethod = NonEmpty.meta({
  description: 'Logical payment method; must belong to currency.',
  examples: ['WT_RUB_C2C'],
});

export const AvailabilityQuery = z
  .object({
    method: amountsMethod,
    currency: Currency,
    min_amount: RequestAmount.meta({
      description: 'Lower bound (inclusive); must not exceed max_amount.',
      examples: ['1000.00'],
    }),
    max_amount: RequestAmount.meta({ description: 'Upper bound (inclusive).', examples: ['2000.00'] }),
    ...scopeFields,
  })
  .meta({ id: 'AvailabilityQuery' });
export type AvailabilityQuery = z.input<typeof AvailabilityQuery>;

export const AvailabilityResponse = z
  .object({
    method: z.string(),
    currency: z.string(),
    evaluated_at: Timestamp,
    coverage: Coverage,
    reserved: z.literal(false),
    truncated: z.boolean(),
    intervals: z
      .array(Interval)
      .meta({ maxItems: MAX_INTERVALS, description: `Sorted, disjoint; at most ${MAX_INTERVALS}.` }),
  })
  .meta({ id: 'AvailabilityResponse' });
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;

export const MAX_RECOMMENDATIONS = 10;
export const DEFAULT_RECOMMENDATIONS = 3;

/** Body of POST /v1/payment/recommendations. */
export const RecommendationsRequest = z
  .object({
    method: amountsMethod,
    currency: Currency,
    amount: RequestAmount.meta({ description: 'Desired amount; may lie outside the bounds.', examples: ['1500.00'] }),
    min_amount: RequestAmount.meta({
      description: 'Lowest amount the caller is willing to send.',
      examples: ['1000.00'],
    }),
    max_amount: RequestAmount.meta({
      description: 'Highest amount the caller is willing to send.',
      examples: ['2000.00'],
    }),
    ...scopeFields,
    limit: z
      .number({ error: typeError('an integer') })
      .int({ message: 'must be an integer' })
      .min(1, { message: 'must be at least 1' })
      .max(MAX_RECOMMENDATIONS, { message: `must be at most ${MAX_RECOMMENDATIONS}` })
      .optional()
      .meta({
        description: `Default ${DEFAULT_RECOMMENDATIONS}, maximum ${MAX_RECOMMENDATIONS}.`,
        examples: [DEFAULT_RECOMMENDATIONS],
      }),
  })
  .meta({ id: 'RecommendationsRequest' });
export type RecommendationsRequest = z.input<typeof RecommendationsRequest>;

export const Recommendation = z
  .object({
    amount: PositiveDecimalText,
    delta: SignedDecimalText.meta({ description: 'Signed: amount minus the requested amount.' }),
  })
  .meta({ id: 'Recommendation' });

export const RecommendationsResponse = AvailabilityResponse.extend({
  recommendations: z
    .array(Recommendation)
    .meta({ maxItems: MAX_RECOMMENDATIONS, description: `At most the request's limit (${MAX_RECOMMENDATIONS}).` }),
}).meta({ id: 'RecommendationsResponse' });
export type RecommendationsResponse = z.infer<typeof RecommendationsResponse>;
