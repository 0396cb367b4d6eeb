// Receipt evidence and URL signing (admin): whether they are available, and switching them off or on.
import type { ControlHandler } from '../types.js';

export const show: ControlHandler<'evidence.show'> = (call) => ({ available: call.ctx.service.evidenceAvailable });

export const set: ControlHandler<'evidence.set'> = async (call) => {
  const { available } = await call.body();
  await call.ctx.service.setEvidenceAvailable(available);
  return { available };
};
