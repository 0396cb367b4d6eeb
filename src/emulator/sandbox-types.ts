// The shapes of a sandbox: the options it is created with, what it shows of itself (its URLs, the demo shops, the
// webhook outbox) and the in-process `Sandbox` object createSandbox (src/emulator/sandbox.ts) answers. The members
// tagged internal are stripped from the published types.
import type { Server } from 'node:http';
import type { H3 } from 'h3';
import type { Dispatcher } from 'undici';
import type { World, WorldIndex } from '../domain/world.js';
import type { StoreBackend } from '../store/backend.js';
import type { Store } from '../store/store.js';
import type { Persistence } from '../store/persistence.js';
import type { SandboxClock } from './runtime/clock.js';
import type { GatewayService } from './runtime/service.js';
import type { WebhookOutbox } from './webhook-outbox/outbox.js';
import type { SandboxTls } from './tls.js';
import type { LimitOptions } from './http/stream-gate.js';
import type { WorkspaceControl, WorkspaceRecord } from './workspaces/types.js';

export interface SandboxOptions extends LimitOptions {
  /** Fixture file path. Default: the bundled `fixtures/default.json`. */
  fixtures?: string;
  /** An already-built world (takes precedence over `fixtures`); validated like a fixture file. */
  world?: unknown;
  /**
   * Store file, or a PostgreSQL database (`postgres://user@host/db`: this process must get its active lease, else
   * `store_locked`). Default: none — an in-memory store that keeps nothing. The CLI passes `.paygate/sandbox.json`.
   */
  store?: string;
  /**
   * @internal The Persistence to write through, instead of the one `store` picks (a file journal, or memory). For
   * tests that need a store that fails on demand; the sandbox opens and closes it. Default: from `store`.
   */
  persistence?: Persistence;
  /**
   * @internal Where the data lives, instead of the backend `store` picks (a FileBackend, or memory): the PostgreSQL
   * backend, or one shared by the workspaces of a server. The caller closes it. Default: from `store`.
   */
  backend?: StoreBackend;
  /** @internal The workspace of `backend` this sandbox is. Default `default`. */
  workspace?: string;
  /** @internal A workspace's limits and own keys (src/emulator/workspaces/guard.ts). */
  guard?: Pick<WorkspaceRecord, 'keys' | 'limits'>;
  /** @internal The workspace host in front of the default workspace's sandbox. */
  front?: SandboxFront;
  /** Delete the store's files before opening (refused while another process owns them). Default false. */
  reset?: boolean;
  /** Acknowledge a group write once durable: a store file fdatasyncs (default false: survives a process crash); PostgreSQL
   * waits for the WAL flush (synchronous_commit; default true: survives a database crash). */
  fsync?: boolean;
  /** Stand the sandbox clock still until advanced. Default false. */
  frozenClock?: boolean;
  /** Initial sandbox time (epoch ms or RFC 3339). Default: now. */
  startTime?: number | string;
  /**
   * Source of real time (epoch ms): what a running clock follows, what the read rate window counts on besides
   * the sandbox clock (spec §8), and the `webhook-timestamp` of every webhook attempt. For tests that move real time
   * without sleeping. Default: Date.now.
   */
  realNow?: () => number;
  /**
   * Public base URL every returned URL is built from (payment_url, receipt_url, flexible links, page forms, webhook
   * payloads), for a sandbox behind a proxy: an absolute http(s) URL, a path prefix allowed, no query or fragment.
   * Default: the URL listen() answers at (https with `https`), else http://paygate.local.
   */
  publicUrl?: string;
  /**
   * listen() serves over TLS with a self-signed certificate (listhen): generated on the first start and kept beside
   * the store (`<store>.cert.pem`, `<store>.key.pem` 0600), reused while valid; an in-memory sandbox makes a new one
   * each start. `sandbox.tls` then tells its fingerprint and file. Default false: plain HTTP.
   */
  https?: boolean;
  /** Credential of the cross-shop controls (X-Admin-Token). Default: a random token, see `sandbox.adminToken`. */
  adminToken?: string;
  /** With a store that kept an admin token (and no `adminToken`): make one more, valid beside it, as `sandbox.adminToken`. */
  addAdminToken?: boolean;
  /** @internal Whether a credential is an admin token the clients of this sandbox hold (the workspace host knows). */
  adminCheck?: (credential: string) => boolean;
  /** Where internal errors are logged. Default: stderr. */
  log?: (line: string) => void;
  /** Register this URL as a webhook endpoint of every shop, with one shared secret (`sandbox.webhookSecret`). Default: none. */
  webhookUrl?: string;
  /** Per-attempt timeout of a webhook delivery, in real milliseconds. Default 10 000. */
  webhookTimeoutMs?: number;
  /** undici dispatcher for webhook deliveries (tests). Default: an Agent the sandbox owns. */
  webhookDispatcher?: Dispatcher;
  /** Workspaces this server holds besides the default one (`workspace create` past it: 409 workspace_limit). Default 64. */
  maxWorkspaces?: number;
}

/** @internal What stands in front of the default workspace's own app: the host of the server's workspaces. */
export interface SandboxFront {
  /** Answers every request sent to the sandbox (fetch and listen) instead of its own app, once set. */
  fetch: ((request: Request) => Response | Promise<Response>) | undefined;
  /** The `workspaces.*` controls. */
  readonly workspaces: WorkspaceControl;
  /** What `sandbox.adminToken` says (undefined: kept from an earlier start) and its last 4 characters. */
  readonly adminToken: { shown: string | undefined; last4: string };
  /** Learns the URL the sandbox listens at. */
  onUrl(url: string): void;
  /** Close what the host holds (the other workspaces, the registry), before the default workspace's store. */
  close(): Promise<void>;
  /** Release the backend, after the default workspace's store closed. */
  release(): Promise<void>;
}

export interface DemoShop {
  id: string;
  name: string;
  merchant_id: string;
  api_key: string;
  hosted_page: boolean;
  flexible_links: boolean;
  pool_only: boolean;
}

export interface DemoInfo {
  shops: DemoShop[];
  revoked_api_key: string | null;
}

/** Where the sandbox serves its pages and files: from `publicUrl`, else the URL listen() answers at. */
export interface SandboxUrls {
  /** The base URL, no trailing slash. */
  base: string;
  /** Base of hosted payment pages; payment_url is `${paymentPage}/<operation_id>`. */
  paymentPage: string;
  /** Base of receipt file links. */
  storage: string;
}

/** The webhook outbox: endpoints and deliveries (managed through the /sandbox/webhooks controls). */
export interface SandboxWebhooks {
  /** Resolves when no delivery attempt is in flight (every attempt that started has been recorded). */
  idle(): Promise<void>;
}
/** @internal The whole outbox, for this repository's code and tests; stripped from the published types. */
export interface SandboxWebhooks extends WebhookOutbox {}

/**
 * An in-process sandbox. Its published type is plain (no h3, store or service classes): the members tagged internal
 * are for this repository's code and tests, and tsc strips them from the package's .d.ts (tsconfig `stripInternal`).
 */
export interface Sandbox {
  /** @internal */
  readonly world: World;
  /** @internal */
  readonly index: WorldIndex;
  /** @internal */
  readonly service: GatewayService;
  readonly clock: SandboxClock;
  /** @internal */
  readonly store: Store;
  readonly demo: DemoInfo;
  readonly urls: SandboxUrls;
  /** @internal The sandbox's own h3 app (without the workspace host in front of it). */
  readonly app: H3;
  /**
   * Credential of the cross-shop sandbox controls (send as X-Admin-Token). Undefined when a store kept the token of
   * an earlier start (only its hash is kept): that token stays valid; `adminTokenLast4` tells which it is.
   */
  readonly adminToken: string | undefined;
  /** The last 4 characters of the admin token. */
  readonly adminTokenLast4: string;
  /** The webhook outbox: `idle()` resolves when no attempt is in flight. */
  readonly webhooks: SandboxWebhooks;
  /** The `whsec_…` secret of the endpoints registered by `webhookUrl` (undefined without it). */
  readonly webhookSecret: string | undefined;
  /** With `https`, once listening: the certificate's fingerprint, PEM and file (see src/emulator/tls.ts). */
  readonly tls: SandboxTls | undefined;
  /** The in-process handler: a WHATWG Request in, a Response out, no socket. */
  fetch(request: Request): Promise<Response>;
  /** Listen on host:port (port 0 picks a free one), over TLS with `https` (then `tls` tells the certificate). */
  listen(opts?: { port?: number; host?: string }): Promise<{ url: string; server: Server; tls?: SandboxTls }>;
  /** Stop listening, flush and compact the store, release its lock. Idempotent. */
  close(): Promise<void>;
}
