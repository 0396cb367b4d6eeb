// The row shape of the sandbox control table (controls.ts, and the tables it takes in: support.ts, faults.ts), and
// the helper that declares a row.
import type { z } from 'zod';
import type { Credential, HttpMethod, EndpointRow } from './endpoint-row.js';

export interface SandboxControlDef extends EndpointRow {
  readonly method: HttpMethod;
  /** `key`: the shop's X-API-Key (shop-scoped actions); `admin`: X-Admin-Token (cross-shop controls); `support`:
   * either (the admin token sees every shop, a key its own). */
  readonly auth: Exclude<Credential, 'none'>;
  /** The success body; for a `stream` control, the data of each server-sent event. */
  readonly response: z.ZodType;
  readonly status?: 201;
  /** Answers with server-sent events (text/event-stream) instead of one JSON body. */
  readonly stream?: true;
}

export const control = <const T extends SandboxControlDef>(d: T): T => d;
