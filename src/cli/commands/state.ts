// `paygate state <operation_id>` / `paygate state --merchant-operation-id <id>`.
import { connect } from '../api.js';
import { show } from '../output.js';
import { operationView } from '../views.js';
import { identifier } from './payment.js';

export async function state(operationId: string | undefined, opts: Record<string, unknown>): Promise<void> {
  const id = identifier(operationId, opts);
  const { client } = connect(opts);
  const moid = 'merchant_operation_id' in id ? { id: id.merchant_operation_id, generated: false } : undefined;
  await show(opts, 'Reading operation state…', () => client.operations.get(id), (op) => operationView(op, moid));
}
