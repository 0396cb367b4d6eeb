// A store failure is the store's error (StoreUnavailableError, a StoreError), not a domain error code: the service
// rejects with it, and the one HTTP table (src/emulator/http/errors.ts) maps it to 503 store_unavailable.
import { describe, expect, it } from 'vitest';
import type { CreateParams } from '../../src/domain/create.js';
import { DomainError } from '../../src/domain/errors.js';
import { STATUS_OF, toApiError } from '../../src/emulator/http/errors.js';
import { StoreError, StoreUnavailableError } from '../../src/store/errors.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('a refused write', () => {
  let p: FailingPersistence;
  const h = useSandbox(() => {
    p = new FailingPersistence(new MemoryPersistence());
    return { persistence: p, frozenClock: true };
  });

  it('rejects with the store error, which the HTTP table maps to 503 store_unavailable', async () => {
    p.failAll();
    const e = await h.sandbox.service
      .create('shop_a', 'payment', paymentBody() as unknown as CreateParams)
      .catch((x: unknown) => x);
    p.heal();
    expect(e).toBeInstanceOf(StoreUnavailableError);
    expect(e).toBeInstanceOf(StoreError);
    expect(e).not.toBeInstanceOf(DomainError);
    expect((e as StoreUnavailableError).cause).toMatchObject({ code: 'ENOSPC' });
    const api = toApiError(e)!;
    expect(api.status).toBe(STATUS_OF.store_unavailable);
    expect(api.status).toBe(503);
    expect(api.code).toBe('store_unavailable');
  });
});
