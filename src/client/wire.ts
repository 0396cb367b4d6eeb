// The two things the core reaches through a seam, each loaded on the first request rather than when the client is
// imported: the contract (each endpoint's method, path, credential, and the check of its success body) and the
// transport (one HTTP exchange). The defaults are the contract's zod tables (routes.ts) and undici
// (undici-transport.ts); the CLI passes lighter ones (src/cli/wire.ts) so that a command starts fast.
import type { Readable } from 'node:stream';
import type { Credential, HttpMethod } from '../contract/endpoint-row.js';

/** One row of either endpoint table, in one shape. */
export interface ClientRoute {
  method: HttpMethod;
  path: string;
  /** `none`: no credential (health probes); `key`: X-API-Key; `admin`: X-Admin-Token; `support`: either. */
  auth: Credential;
  /** Whether a success carries a JSON body to check (false: 204). */
  response: boolean;
}

/** The contract as the core uses it. */
export interface ContractView {
  /** The row of `id` in the gateway's table or the sandbox's control table; throws PaygateError for an unknown id. */
  routeOf(id: string): ClientRoute | Promise<ClientRoute>;
  /**
   * The 2xx body parsed by the endpoint's response schema; throws ContractMismatchError naming the failing fields
   * when it breaks the contract.
   */
  check(id: string, body: unknown, label: string, status: number): unknown | Promise<unknown>;
}

export interface WireRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | Buffer | Readable | undefined;
  /** Aborts the exchange (the attempt's timeout or the caller's signal). */
  signal: AbortSignal;
}

export interface WireResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

/** One HTTP exchange, the whole body read as text. A failure to connect or to read rejects with the cause. */
export type Transport = (req: WireRequest) => Promise<WireResponse>;
