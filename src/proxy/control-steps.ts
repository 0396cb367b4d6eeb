// The sandbox control that produces a status an operation reached between two exchanges by the gateway's (or the
// payer's, the provider's, a reviewer's) doing: the payer paid, the provider settled or failed a payout, a reviewer
// approved or declined, the payment expired. The recorder inserts it before the exchange that showed the move.

/** An operation the recording has seen answered, and how later steps name it. */
export interface TrackedOperation {
  /** The upstream's operation_id (never written: steps use `ref`). */
  id: string;
  /** The id of the step that first answered it. */
  step: string;
  /** `${{ steps.<id>.operation_id }}`. */
  ref: string;
  kind: 'payment' | 'payout';
  /** The status last seen. */
  status: string;
  /** The shop of the key that created it. */
  shop: string | undefined;
  /** Why its later steps cannot be replayed: it moved by something the proxy did not see. */
  diverged?: string;
}

type Step = Record<string, unknown>;

/** The control step producing `op`'s move to `to` (the answer that shows it is `body`), or undefined when none does. */
export function controlStep(
  op: TrackedOperation,
  to: string,
  body: Record<string, unknown>,
  seq: number,
): Step | undefined {
  const seen = `seen at #${seq}: ${op.status} → ${to}`;
  const amount = typeof body.actual_amount === 'string' ? { amount: body.actual_amount } : {};
  const id = { id: op.ref };
  if (op.kind === 'payout' && op.status === 'pending' && (to === 'completed' || to === 'rejected')) {
    const outcome = to === 'completed' ? 'completed' : 'failed';
    return {
      name: `the provider ${to === 'completed' ? 'settled' : 'failed'} the payout (${seen})`,
      call: 'operations.settle',
      with: { ...id, outcome },
      expect: { body: { status: to } },
    };
  }
  if (op.kind !== 'payment') return undefined;
  if (op.status === 'pending' && to === 'completed') {
    return {
      name: `the payer paid (${seen})`,
      call: 'operations.pay',
      with: { ...id, ...amount },
      expect: { body: { status: to } },
    };
  }
  if (op.status === 'manual_check' && (to === 'completed' || to === 'rejected')) {
    const decision = to === 'completed' ? 'approve' : 'decline';
    return {
      name: `a reviewer ${decision === 'approve' ? 'approved' : 'declined'} the receipt (${seen})`,
      call: 'operations.review',
      with: { ...id, decision, ...(decision === 'approve' ? amount : {}) },
      expect: { body: { status: to } },
    };
  }
  if ((op.status === 'pending' || op.status === 'awaiting_confirmation') && to === 'rejected') {
    return { name: `the payment expired (${seen})`, wait_for: { operation: op.ref, status: 'rejected' } };
  }
  return undefined;
}
