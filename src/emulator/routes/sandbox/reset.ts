// POST /sandbox/reset (admin): forget every operation and issued key, re-seed from the fixtures.
import type { ControlHandler } from '../types.js';

export const reset: ControlHandler<'sandbox.reset'> = async (call) => {
  const { service } = call.ctx;
  await service.reset();
  return { reset: true, now: new Date(service.clock.now()).toISOString() };
};
