// The merchant's own gateway calls, with plain fetch: create a payment for an order, read its state.
export interface GatewayConfig {
  baseUrl: string;
  apiKey: string;
}

export interface Payment {
  operation_id: string;
  status: string;
  expected_amount: string;
  actual_amount: string;
  number?: string;
  name?: string;
  payment_url?: string | null;
}

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(cfg: GatewayConfig, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${cfg.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': cfg.apiKey },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T & { code?: string; message?: string };
  if (!res.ok) throw new GatewayError(res.status, json.code, json.message ?? `gateway answered ${res.status}`);
  return json;
}

export function createPayment(
  cfg: GatewayConfig,
  order: { id: string; customerId: string; amount: string },
): Promise<Payment> {
  return call(cfg, '/v1/payment/link', {
    merchant_operation_id: `order-${order.id}`,
    client_id: order.customerId,
    method: 'WT_RUB_C2C',
    amount: order.amount,
    currency: 'RUB',
  });
}

export function paymentState(cfg: GatewayConfig, orderId: string): Promise<Payment> {
  return call(cfg, '/v1/get_operation_state', { merchant_operation_id: `order-${orderId}` });
}
