// The sandbox clock (admin): show it, and move it forward, running every timer that falls due.
import type { RouteContext } from '../../context.js';
import type { ControlHandler } from '../types.js';

function clockState({ service }: RouteContext) {
  const next = service.clock.nextTimerAt();
  return {
    now: new Date(service.clock.now()).toISOString(),
    frozen: service.clock.frozen,
    pending_timers: service.clock.pendingTimers(),
    next_timer_at: next === undefined ? null : new Date(next).toISOString(),
  };
}

export const show: ControlHandler<'clock.show'> = (call) => clockState(call.ctx);

export const advance: ControlHandler<'clock.advance'> = async (call) => {
  const { service } = call.ctx;
  const { by } = await call.body();
  await service.clock.advance(by);
  await service.store.sync();
  return clockState(call.ctx);
};
