// The row shape of the sandbox control table (controls.ts, and the tables it takes in: support.ts), and the helper
// that declares a row with its `name` equal to its stable dotted id.
import type { z } from 'zod';
import type { HttpMethod, RouteDef } from './route.js';

export interface SandboxControlDef extends RouteDef {
  /** The stable dotted id, e.g. `clock.advance` (the same as `name`). */
  readonly id: string;
  /** The OpenAPI operationId and the client's request id, e.g. `sandboxAdvanceClock`. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** `key`: the shop's X-API-Key (shop-scoped actions); `admin`: X-Admin-Token (cross-shop controls); `support`:
   * either (the admin token sees every shop, a key its own). */
  readonly auth: 'key' | 'admin' | 'support';
  /** The success body; for a `stream` control, the data of each server-sent event. */
  readonly response: z.ZodType;
  readonly status?: 201;
  /** Answers with server-sent events (text/event-stream) instead of one JSON body. */
  readonly stream?: true;
}

export type ControlInput = Omit<SandboxControlDef, 'name'>;
export const control = <const T extends ControlInput>(d: T): T & { readonly name: T['id'] } => ({ ...d, name: d.id });
