// The handler types of the two endpoint tables: one handler per row, typed by the row it serves.
import type { ControlId, SandboxControls } from '../../contract/controls.js';
import type { EndpointId, endpoints } from '../../contract/endpoints.js';
import type { EndpointRow } from '../../contract/endpoint-row.js';
import type { Call, RouteHandler } from '../http/handler.js';

/** The handler of the gateway endpoint `K` (e.g. `payment.create`). */
export type GatewayHandler<K extends EndpointId> = RouteHandler<(typeof endpoints)[K]>;
/** The handler of the sandbox control `K` (e.g. `clock.advance`). */
export type ControlHandler<K extends ControlId> = RouteHandler<SandboxControls[K]>;
/** A call of any row, for helpers shared by several handlers. */
export type AnyCall = Call<EndpointRow>;
