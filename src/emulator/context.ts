// What the emulator's routes are given: the service, the public URLs, the credentials and secrets of one app, and
// the per-app helpers built from them (the amount-read limits, receipt evidence as the state read shows it).
import type { FaultInjector } from './faults/injector.js';
import type { AmountReadGate } from './runtime/amount-reads.js';
import type { RequestLog } from './runtime/request-log.js';
import type { GatewayService } from './runtime/service.js';
import type { WebhookOutbox } from './webhook-outbox/outbox.js';
import type { WorkspaceControl } from './workspaces/types.js';
import type { StreamGate } from './http/stream-gate.js';
import type { ServerLimits } from './server-limits.js';
import type { EvidenceOptions } from './wire.js';

export interface AppUrls {
  /** Base of hosted payment pages; payment_url is `${paymentPage}/<operation_id>`. */
  paymentPage: string;
  /** Base of receipt file links. */
  storage: string;
}

export interface AppContext {
  service: GatewayService;
  urls: AppUrls;
  /** Credential of the cross-shop sandbox controls (x-admin-token). */
  adminToken: string;
  /**
   * Whether a credential is an admin token of this app as its clients know it (the dashboard's sign-in form takes
   * it in a body, which the workspace host does not translate). Default: equal to `adminToken`.
   */
  isAdminToken?: (credential: string) => boolean;
  /** Secret that signs receipt download links. */
  urlSecret: Uint8Array;
  /** Readiness: false while starting or closing. */
  ready: () => boolean;
  log?: (line: string) => void;
  /** The webhook outbox behind the /sandbox/webhooks controls. */
  outbox: WebhookOutbox;
  /** The limits of this app's availability and recommendation reads (reset with the service). */
  amountReads: AmountReadGate;
  /** The injected faults in force (the faults.* controls; the fixtures' applied at start and on every reset, with the
   * service) and the history of the ones that hit an operation. */
  faults: FaultInjector;
  /** The server's workspaces (the `workspaces.*` controls); absent in a workspace other than the default one. */
  workspaces?: WorkspaceControl;
  /** What one client may hold of the server (src/emulator/server-limits.ts). Default: the defaults. */
  limits?: ServerLimits;
  /** The server's open event streams, shared by its workspaces. Default: this app's own, from `limits`. */
  streams?: StreamGate;
}

export interface RouteContext extends AppContext {
  /** Every request this app answered, newest last (GET /sandbox/logs). */
  readonly requestLog: RequestLog;
  /** What one client may hold of the server, every number set. */
  readonly limits: ServerLimits;
  /** The open event streams the server admits (per credential and in all). */
  readonly streams: StreamGate;
  /** Receipt evidence now: whether it is available, and signed links to stored files. */
  evidence(): EvidenceOptions;
}

/** How long a receipt download link stays valid (sandbox time). */
export const RECEIPT_URL_TTL_MS = 15 * 60_000;
/** Largest receipt upload accepted (bytes). */
export const RECEIPT_LIMIT = 10 * 1024 * 1024;
