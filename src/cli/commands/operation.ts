// `paygate operation history <operation_id>`: the sandbox's record of one operation (transitions, receipt uploads).
import { connect } from '../api.js';
import { show } from '../output.js';
import { historyView } from '../views.js';
import { identifier } from './payment.js';

export async function history(operationId: string | undefined, opts: Record<string, unknown>): Promise<void> {
  const id = identifier(operationId, opts);
  const { client } = connect(opts);
  await show(opts, 'Reading the operation history…', () => client.sandbox.operations.details(id), historyView);
}
