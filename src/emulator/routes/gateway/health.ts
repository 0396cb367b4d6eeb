// The probes: /livez answers while the process runs; /healthz and /readyz only while the sandbox is ready. A
// healthy probe has no body (the row's 204); an unhealthy one is the error body.
import { ApiError, errorResponse } from '../../http/errors.js';
import type { GatewayHandler } from '../types.js';

const unhealthy = () => errorResponse(new ApiError('unhealthy', 'the sandbox is not ready'));

export const livez: GatewayHandler<'health.livez'> = () => undefined;
export const healthz: GatewayHandler<'health.healthz'> = (call) => (call.ctx.ready() ? undefined : unhealthy());
export const readyz: GatewayHandler<'health.readyz'> = (call) => (call.ctx.ready() ? undefined : unhealthy());
