// Enumerations and the one error body shared by every endpoint.
import { z } from 'zod';

export const OperationType = z.enum(['payment', 'payout']);
export type OperationType = z.infer<typeof OperationType>;

export const OperationStatus = z.enum([
  'pending',
  'awaiting_confirmation',
  'manual_check',
  'completed',
  'cancelled',
  'rejected',
]);
export type OperationStatus = z.infer<typeof OperationStatus>;

export const TERMINAL_STATUSES: readonly OperationStatus[] = ['completed', 'cancelled', 'rejected'];

export const ManualCheckReason = z.enum(['potential_fake', 'not_terminal']);
export type ManualCheckReason = z.infer<typeof ManualCheckReason>;

export const ReceiptEvidenceStatus = z.enum(['not_ready', 'partial', 'complete', 'unavailable']);
export type ReceiptEvidenceStatus = z.infer<typeof ReceiptEvidenceStatus>;

/** Every error response of the emulator has this body (spec §7 leaves the shape unshown; this is ours). */
export const ErrorBody = z
  .object({
    code: z.string().meta({ description: 'Stable snake_case error code.', examples: ['validation_error'] }),
    message: z.string().meta({ description: 'Human-readable explanation, with a hint where one helps.' }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
