// Wire formats of money and identifiers: amounts travel as decimal strings, never JSON numbers.
import { z } from 'zod';

/** A request amount: a decimal string, no sign, no exponent, at most 2 decimal places, greater than 0. */
export const AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,17})(\.[0-9]{1,2})?$/;

export const RequestAmount = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a decimal string such as "100.00", not a JSON number') })
  .regex(AMOUNT_PATTERN, { message: 'must be a decimal string with at most 2 decimal places, such as "100.00"' })
  .refine((s) => /[1-9]/.test(s), { message: 'must be greater than 0' })
  .meta({ description: 'Decimal string, at most 2 decimal places, greater than 0.', examples: ['1500.00'] });

/** A response amount at scale 2 (may be zero or negative for balances). */
export const WireAmount = z
  .string()
  .regex(/^-?[0-9]+\.[0-9]{2}$/, { message: 'must be a decimal string at scale 2' })
  .meta({ description: 'Decimal string at scale 2.', examples: ['1500.00'] });

/** An exchange rate: a positive decimal string of any scale. */
export const WireRate = z
  .string()
  .regex(/^[0-9]+(\.[0-9]+)?$/, { message: 'must be a decimal string' })
  .meta({ description: 'Decimal string (exchange rate).', examples: ['0.0108'] });

export const Uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'must be a UUID' })
  .meta({ format: 'uuid' });

export const Timestamp = z.string().meta({ format: 'date-time', description: 'RFC 3339 timestamp.' });

export const Currency = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .regex(/^[A-Z]{3,5}$/, { message: 'must be an ISO 4217 code such as "RUB"' });

/** A required non-empty string field. */
export const NonEmpty = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .min(1, { message: 'must not be empty' });

export const OptionalString = z.string({ error: 'must be a string' }).optional();
