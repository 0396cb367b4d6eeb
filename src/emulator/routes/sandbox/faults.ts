// Fault injection (admin; src/contract/faults.ts): list the faults in force, add one, replace them all, clear them
// or remove one. The faults act in the guard (src/emulator/faults/injector.ts); these handlers only change the set.
import type { ControlHandler } from '../types.js';

export const list: ControlHandler<'faults.list'> = (call) => ({ faults: call.ctx.faults.list() });

export const add: ControlHandler<'faults.add'> = async (call) => call.ctx.faults.add(await call.body());

export const set: ControlHandler<'faults.set'> = async (call) => ({
  faults: call.ctx.faults.set((await call.body()).faults),
});

export const clear: ControlHandler<'faults.clear'> = (call) => ({ removed: call.ctx.faults.clear() });

export const remove: ControlHandler<'faults.remove'> = (call) => ({
  removed: call.ctx.faults.remove(call.param('id')),
});
