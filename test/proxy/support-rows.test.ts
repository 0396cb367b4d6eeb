// The proxy's listing rows are made once per change of an operation, not on every read (the dashboard's Operations
// page reads every row of up to 10,000 operations, again after each change it is told of).
import { describe, expect, it } from 'vitest';
import type { SupportModel } from '../../src/proxy/support-model.js';
import { useCleanup } from '../helpers/cleanup.js';
import { createThrough, gateway, proxied } from '../dashboard/proxy-setup.js';

const defer = useCleanup();

describe('the proxy’s listing rows', () => {
  it('are the same row until the operation changes, then a new one with the change', async () => {
    const p = await proxied(defer);
    const id = await createThrough(p, 'rows-1');
    const model = (p.proxy as unknown as { support: { model: SupportModel } }).support.model;
    const op = model.operations.get(id)!;
    const first = model.rowOf(op)!;
    expect(first.status).toBe('pending');
    expect(model.rowOf(op)).toBe(first);
    await p.sb.pay(id);
    await gateway(p, '/v1/get_operation_state', { operation_id: id });
    const paid = model.rowOf(op)!;
    expect(paid).not.toBe(first);
    expect(paid.status).toBe('completed');
    expect(model.rowOf(op)).toBe(paid);
  });
});
