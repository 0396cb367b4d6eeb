// One typed-client call per gateway endpoint, with a valid request, for the fault tests: what a merchant would send.
import type { Paygate } from '../../src/client/index.js';
import type { EndpointId } from '../../src/contract/endpoints.js';
import { paymentBody, payoutBody } from '../helpers/harness.js';

const UUID = '00000000-0000-4000-8000-000000000000';
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
const AMOUNTS = { method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '100.00', max_amount: '5000.00' };

/** Call `endpoint` with `client`; resolves to the value or rejects with what the client threw. */
export const CALLS: { readonly [K in EndpointId]: (client: Paygate) => Promise<unknown> } = {
  'payment.create': (c) => c.payments.create(paymentBody() as never),
  'payment.link': (c) => c.payments.createLink(paymentBody() as never),
  'payment.flexible_link': (c) => {
    const { amount: _a, ...rest } = paymentBody();
    return c.payments.createFlexibleLink({
      ...(rest as Record<string, string>),
      recommended_amount: '1500.00',
    } as never);
  },
  'payout.create': (c) => c.payouts.create(payoutBody() as never),
  'payment.confirm': (c) => c.payments.confirm({ operation_id: UUID, receipt: PDF }),
  'operation.state': (c) => c.operations.get({ operation_id: UUID }),
  'operation.cancel': (c) => c.operations.cancel({ operation_id: UUID }),
  'balances.list': (c) => c.balances.list(),
  'payment.availability': (c) => c.payments.availability(AMOUNTS),
  'payment.recommendations': (c) => c.payments.recommendations({ ...AMOUNTS, amount: '1500.00' }),
  'health.livez': (c) => c.health.check('livez').withResponse(),
  'health.healthz': (c) => c.health.check('healthz').withResponse(),
  'health.readyz': (c) => c.health.check('readyz').withResponse(),
};

/** What came back: the status, the body's code and the fault header, from an error (or a probe's answer). */
export interface Outcome {
  status: number;
  code: string | undefined;
  /** The answer's body (an error's `{ code, message }`). */
  body: unknown;
  /** X-Paygate-Fault: the id of the fault that answered. */
  fault: string | undefined;
  error: unknown;
}

export async function outcomeOf(p: Promise<unknown>): Promise<Outcome> {
  try {
    const r = (await p) as { response?: { status: number; body?: { code?: string }; headers: Record<string, string> } };
    if (!r?.response) return { status: 200, code: undefined, body: r, fault: undefined, error: undefined };
    return {
      status: r.response.status,
      code: r.response.body?.code,
      body: r.response.body,
      fault: r.response.headers['x-paygate-fault'],
      error: undefined,
    };
  } catch (e) {
    // A cancel whose outcome a 5xx leaves open is a CancelOutcomeUnknownError around the APIError.
    const api = (e as { status?: number }).status !== undefined ? e : (e as { cause?: unknown }).cause;
    const a = api as { status?: number; code?: string; body?: unknown; headers?: Record<string, string> } | undefined;
    return { status: a?.status ?? -1, code: a?.code, body: a?.body, fault: a?.headers?.['x-paygate-fault'], error: e };
  }
}
