// client.sandbox.faults: fault injection (admin token). Make a gateway endpoint answer one of the failure statuses the
// spec lists for it, hold it, lose its answer after the write landed, or drift from the contract — for one shop or
// all, for the next N requests or with a seeded probability (src/contract/faults.ts; docs/faults.md).
import type { FaultInput } from '../../contract/faults.js';
import { call, resource } from './resource.js';

/** One fault to inject: exactly one of `status`, `latency_ms`, `drop_response_after_commit` or `drift`. */
export interface SandboxFaultInput {
  /** The gateway endpoint: its dotted id (`operation.cancel`, `balances.list` …) or its OpenAPI operationId (`operationCancel`). */
  endpoint: string;
  /** Answer this status instead of running the request; one the spec lists for the endpoint (else 400 naming them). */
  status?: number | undefined;
  /** With `status`: which of the spec's cases for it (e.g. `cancel_not_durable`). Default: the first the spec lists. */
  code?: string | undefined;
  /** Hold the request this many ms of sandbox time before it runs (a frozen clock: until advanced), 1 to 600,000. */
  latency_ms?: number | undefined;
  /** Run the request (its write lands), then close the connection without an answer. */
  drop_response_after_commit?: true | undefined;
  /**
   * Change the successful answer instead of failing it (docs/faults.md, "Drift"): `remove_field`, `rename_field`,
   * `change_field`, `out_of_order` (an operation shown in an earlier status), `extra_status` (answer with `status`, one
   * the contract does not declare).
   */
  drift?: 'remove_field' | 'rename_field' | 'change_field' | 'out_of_order' | 'extra_status' | undefined;
  /** With a field drift: the field of the answer, dotted (`settlement_amount`, `operation.status`, `balances.*.reserved`). */
  field?: string | undefined;
  /** With `rename_field`: the new name. */
  to?: string | undefined;
  /** With `change_field`: the JSON value the field takes; with `out_of_order`: the status shown (default pending). */
  value?: unknown;
  /** Only requests made with this shop's key. Default: every shop. */
  shop_id?: string | undefined;
  /** Only the next N matching requests. Default: every one, until removed. */
  count?: number | undefined;
  /** Each matching request with this probability (0 < p ≤ 1), drawn deterministically from `seed`. Default: every one. */
  probability?: number | undefined;
  /** Seed of the probability draws: the same seed hits the same requests. Default 0. */
  seed?: number | undefined;
}

/** Compile-time check: what the client sends is what the contract takes. */
const _sameShape = (f: SandboxFaultInput): FaultInput => f;
void _sameShape;

const HINT = 'read client.sandbox.faults.list() to see the faults in force';

/** Drop the fields left undefined, so the body holds only what was given. */
function bodyOf(f: SandboxFaultInput): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f ?? {}).filter(([, v]) => v !== undefined));
}

/** Fault injection (admin token). Faults act on the gateway's endpoints only, after authentication. */
export class SandboxFaults extends resource({
  /** GET /sandbox/faults: the faults in force, with `matched`, `fired` and `remaining` of each. */
  'faults.list': call(0),
  /** POST /sandbox/faults: add one fault next to those in force; resolves to it, with its id (`flt_<n>`). Not retried after a timeout. */
  'faults.add': call(1, (fault: SandboxFaultInput) => ({
    body: bodyOf(fault),
    outcomeHint: `a fault may or may not have been added: ${HINT}`,
  })),
  /** PUT /sandbox/faults: replace every fault with `faults` (an empty list clears them). Not retried after a timeout. */
  'faults.set': call(1, (faults: readonly SandboxFaultInput[]) => ({
    body: { faults: (faults ?? []).map(bodyOf) },
    outcomeHint: HINT,
  })),
  /** DELETE /sandbox/faults: remove every fault; resolves to `{ removed }`. */
  'faults.clear': call(0, () => ({ outcomeHint: HINT })),
  /** DELETE /sandbox/faults/:id: remove one fault (`404 fault_not_found` for an unknown id). */
  'faults.remove': call(1, (id: string) => ({ params: { id }, outcomeHint: HINT })),
}) {}
