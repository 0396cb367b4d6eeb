// Wire formats of money and identifiers: amounts travel as decimal strings, never JSON numbers.
import { z } from 'zod';
import { typeError } from './echo.js';

/** A request amount: a decimal string, no sign, no exponent, at most 2 decimal places, greater than 0. */
export const AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,17})(\.[0-9]{1,2})?$/;

/**
 * The JSON Schema patterns of the documented amounts (OpenAPI). A request amount's pattern also excludes zero, which
 * the schema checks with a refinement; response amounts are at scale 2, signed only where the spec allows a sign.
 */
export const DOC_PATTERNS = {
  requestAmount: '^(0\\.(0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,17}(\\.[0-9]{1,2})?)$',
  amount: '^[0-9]+\\.[0-9]{2}$',
  positiveAmount: '^(0\\.(0[1-9]|[1-9][0-9])|[1-9][0-9]*\\.[0-9]{2})$',
  signedAmount: '^-?[0-9]+\\.[0-9]{2}$',
  uuid: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
} as const;

export const RequestAmount = z
  .string({ error: typeError('a decimal string like "100.00"') })
  .regex(AMOUNT_PATTERN, { message: 'must be a decimal string with at most 2 decimal places, such as "100.00"' })
  .refine((s) => /[1-9]/.test(s), { message: 'must be greater than 0' })
  .meta({
    description: 'Decimal string, at most 2 decimal places, greater than 0.',
    examples: ['1500.00'],
    pattern: DOC_PATTERNS.requestAmount,
  });

/** A response amount at scale 2, never negative (documented so; the check accepts a sign, see SignedWireAmount). */
export const WireAmount = z
  .string()
  .regex(/^-?[0-9]+\.[0-9]{2}$/, { message: 'must be a decimal string at scale 2' })
  .meta({
    description: 'Decimal string at scale 2, not negative.',
    examples: ['1500.00'],
    pattern: DOC_PATTERNS.amount,
  });

/** A response amount at scale 2 that may be negative (a balance, a payment's settlement after a fixed fee). */
export const SignedWireAmount = z
  .string()
  .regex(/^-?[0-9]+\.[0-9]{2}$/, { message: 'must be a decimal string at scale 2' })
  .meta({
    description: 'Decimal string at scale 2, may be negative.',
    examples: ['1462.50'],
    pattern: DOC_PATTERNS.signedAmount,
  });

/**
 * A decimal string the emulator sends at scale 2 and the client takes as any string (the spec gives no scale for
 * these): the pattern is documentation (OpenAPI) only.
 */
const decimalText = (pattern: string, description: string) =>
  z.string().meta({ description, examples: ['1500.00'], pattern });
export const DecimalText = decimalText(DOC_PATTERNS.amount, 'Decimal string (scale 2), not negative.');
export const PositiveDecimalText = decimalText(
  DOC_PATTERNS.positiveAmount,
  'Decimal string (scale 2), greater than 0.',
);
export const SignedDecimalText = decimalText(DOC_PATTERNS.signedAmount, 'Decimal string (scale 2), may be negative.');

/** An exchange rate: a positive decimal string of any scale. */
export const WireRate = z
  .string()
  .regex(/^[0-9]+(\.[0-9]+)?$/, { message: 'must be a decimal string' })
  .meta({ description: 'Decimal string (exchange rate).', examples: ['0.0108'] });

export const Uuid = z
  .string({ error: typeError('a UUID string') })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'must be a UUID' })
  .meta({ format: 'uuid', pattern: DOC_PATTERNS.uuid });

export const Timestamp = z.string().meta({ format: 'date-time', description: 'RFC 3339 timestamp.' });

export const Currency = z
  .string({ error: typeError('a string') })
  .regex(/^[A-Z]{3,5}$/, { message: 'must be an ISO 4217 code such as "RUB"' })
  .meta({ description: 'ISO 4217 code.', examples: ['RUB'] });

/** A required non-empty string field. */
export const NonEmpty = z.string({ error: typeError('a string') }).min(1, { message: 'must not be empty' });

export const OptionalString = z.string({ error: typeError('a string') }).optional();
