// The merchant's orders, in memory for the example.
export interface Order {
  status: 'awaiting_payment' | 'paid' | 'failed';
  operationId: string;
  amount: string;
  paidAmount?: string;
}

export type Orders = Map<string, Order>;
