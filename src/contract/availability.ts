// Schemas of amount availability and recommendations (spec §2.7, §4.9, §4.10).
import { z } from 'zod';
import { Currency, NonEmpty, RequestAmount, Timestamp } from './money.js';

export const Interval = z
  .object({ min_amount: z.string(), max_amount: z.string() })
  .meta({ id: 'Interval', description: 'Both ends inclusive.' });
export type Interval = z.infer<typeof Interval>;

export const Coverage = z.enum(['full', 'partial', 'none']);

/** Query of GET /v1/payment/availability; every parameter is required. */
export const AvailabilityQuery = z
  .object({
    method: NonEmpty,
    currency: Currency,
    min_amount: RequestAmount,
    max_amount: RequestAmount,
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
    intervals: z.array(Interval),
  })
  .meta({ id: 'AvailabilityResponse' });
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;

export const MAX_RECOMMENDATIONS = 10;
export const DEFAULT_RECOMMENDATIONS = 3;

/** Body of POST /v1/payment/recommendations. */
export const RecommendationsRequest = z
  .object({
    method: NonEmpty,
    currency: Currency,
    amount: RequestAmount,
    min_amount: RequestAmount,
    max_amount: RequestAmount,
    limit: z
      .number({ error: 'must be an integer' })
      .int({ message: 'must be an integer' })
      .min(1, { message: 'must be at least 1' })
      .max(MAX_RECOMMENDATIONS, { message: `must be at most ${MAX_RECOMMENDATIONS}` })
      .optional()
      .meta({ description: `Default ${DEFAULT_RECOMMENDATIONS}, maximum ${MAX_RECOMMENDATIONS}.` }),
  })
  .meta({ id: 'RecommendationsRequest' });
export type RecommendationsRequest = z.input<typeof RecommendationsRequest>;

export const Recommendation = z
  .object({ amount: z.string(), delta: z.string().meta({ description: 'Signed: amount minus the requested amount.' }) })
  .meta({ id: 'Recommendation' });

export const RecommendationsResponse = AvailabilityResponse.extend({
  recommendations: z.array(Recommendation),
}).meta({ id: 'RecommendationsResponse' });
export type RecommendationsResponse = z.infer<typeof RecommendationsResponse>;
