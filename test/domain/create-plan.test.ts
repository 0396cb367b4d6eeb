// A domain command returns its refusal as a value: planCreate answers { kind: 'refused', error } (a DomainError
// with its stable code and field) instead of throwing, and nothing is planned.
import { describe, expect, it } from 'vitest';
import { planCreate } from '../../src/domain/create.js';
import { DomainError } from '../../src/domain/errors.js';
import type { DomainContext } from '../../src/domain/state.js';
import { WorldIndex } from '../../src/domain/world.js';
import { SandboxState } from '../../src/store/state.js';
import { loadWorld } from '../../src/world/load.js';

const world = new WorldIndex(loadWorld());
const ctx = (): DomainContext => ({ world, state: new SandboxState(), now: Date.parse('2026-01-01T00:00:00Z') });
const body = { merchant_operation_id: 'm1', client_id: 'c1', method: 'WT_RUB_C2C', amount: '100.00', currency: 'RUB' };

describe('planCreate', () => {
  it('returns an unknown method as a refused plan, without throwing', () => {
    const plan = planCreate(ctx(), 'shop_a', 'payment', { ...body, method: 'NOPE' });
    expect(plan.kind).toBe('refused');
    if (plan.kind !== 'refused') return;
    expect(plan.error).toBeInstanceOf(DomainError);
    expect(plan.error).toMatchObject({ code: 'unknown_method', field: 'method' });
  });

  it('returns an unknown shop and a missing payout number as values too', () => {
    expect(planCreate(ctx(), 'no_such_shop', 'payment', body)).toMatchObject({
      kind: 'refused',
      error: { code: 'operation_not_found' },
    });
    expect(planCreate(ctx(), 'shop_a', 'payout', body)).toMatchObject({
      kind: 'refused',
      error: { code: 'number_required' },
    });
  });

  it('plans a valid create as before', () => {
    expect(planCreate(ctx(), 'shop_a', 'payment', body).kind).toBe('commit');
  });
});
