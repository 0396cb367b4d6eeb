// createSandbox wires fixtures, store, clock, service and the h3 app into one object; startSandbox also listens.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { H3 } from 'h3';
import type { Dispatcher } from 'undici';
import type { World } from '../domain/world.js';
import { WorldIndex } from '../domain/world.js';
import { loadWorld, parseWorld } from '../world/load.js';
import { DEFAULT_WORKSPACE, type StoreBackend } from '../store/backend.js';
import type { Store } from '../store/store.js';
import type { Persistence } from '../store/persistence.js';
import { openState, type OpenedState } from './open-state.js';
import { createApp } from './app.js';
import { SandboxClock } from './runtime/clock.js';
import { GatewayService } from './runtime/service.js';
import { signPath } from './receipts/signed-url.js';
import { RECEIPT_URL_TTL_MS } from './app.js';
import { WebhookOutbox } from './webhook-outbox/outbox.js';
import { retainPdfReader } from './receipts/pdf-reader.js';
import { publicBase, publicUrlProblem } from './public-url.js';
import type { SandboxTls } from './tls.js';
import { Listeners } from './listeners.js';
import { limitsOf, withStreamGate, type LimitOptions } from './http/stream-gate.js';
import { WorkspaceGuard } from './workspaces/guard.js';
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

function demoInfo(world: World, index: WorldIndex): DemoInfo {
  const shops = world.shops.map((s) => {
    const key = world.api_keys.find((k) => k.shop_id === s.id && !k.revoked);
    const payin = world.routes.filter((r) => r.shop_id === s.id && r.direction === 'payin');
    const poolOnly =
      payin.length > 0 &&
      payin.every((r) => r.providers.every((p) => index.providers.get(p)?.kind === 'self_matching'));
    return {
      id: s.id,
      name: s.name,
      merchant_id: s.merchant_id,
      api_key: key?.key ?? '',
      hosted_page: s.hosted_page,
      flexible_links: s.flexible_links,
      pool_only: poolOnly,
    };
  });
  return { shops, revoked_api_key: world.api_keys.find((k) => k.revoked)?.key ?? null };
}

/**
 * Create a sandbox: the default workspace of a server, with the host of its other workspaces in front of it (every
 * request, in process or over a socket, is routed by the host: src/emulator/workspaces/host.ts).
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const opts = withStreamGate(options);
  if ((opts.workspace ?? DEFAULT_WORKSPACE) !== DEFAULT_WORKSPACE) return createInstance(opts);
  const { hostSandbox } = await import('./workspaces/host.js');
  return hostSandbox(opts, createInstance);
}

/** A workspace's guard: its operation limit at the pipeline's admit stage, its keys and clock seeded. */
function workspaceGuard(
  store: Store,
  clock: SandboxClock,
  guard: NonNullable<SandboxOptions['guard']>,
): WorkspaceGuard {
  const clockMeta = () => ({ id: 'clock', now: clock.now(), offset: clock.now() - Date.now() });
  return new WorkspaceGuard(() => store.state, clockMeta, guard);
}

/** The service of an opened store, with its clock and webhook outbox, initialised (seeded, timers re-armed). */
async function startService(
  opts: SandboxOptions,
  index: WorldIndex,
  opened: OpenedState,
  urls: SandboxUrls,
  log: (line: string) => void,
) {
  const { store, files, secrets, start, closeBackend } = opened;
  const clock = new SandboxClock({
    frozen: opts.frozenClock ?? false,
    ...(start !== undefined ? { start } : {}),
    ...(opts.realNow ? { realNow: opts.realNow } : {}),
    onError: (e) => log(`timer failed: ${String((e as Error)?.stack ?? e)}`),
  });
  const releasePdfReader = retainPdfReader();
  // The outbox writes through the service's pipeline, which it is a stage of: it reaches it through this binding.
  let service: GatewayService | undefined;
  const evidence = () => ({
    available: service!.evidenceAvailable,
    signFile: (fileId: string) =>
      `${urls.storage}${signPath(`/receipts/${fileId}`, clock.now() + RECEIPT_URL_TTL_MS, secrets.url)}`,
  });
  const outbox = new WebhookOutbox(
    { store, clock, world: index, commit: (changes) => service!.commit(changes) },
    evidence,
    {
      ...(opts.webhookUrl ? { url: opts.webhookUrl } : {}),
      ...(opts.webhookTimeoutMs !== undefined ? { attemptTimeoutMs: opts.webhookTimeoutMs } : {}),
      ...(opts.webhookDispatcher ? { dispatcher: opts.webhookDispatcher } : {}),
      log,
    },
  );
  const guard = opts.guard ? workspaceGuard(store, clock, opts.guard) : undefined;
  service = new GatewayService({
    world: index,
    store,
    clock,
    files,
    linkKey: secrets.link,
    admission: guard ? [guard] : [],
    extension: outbox,
    subscribers: [outbox.scheduler],
    parts: guard ? [guard, outbox] : [outbox],
    ...(guard && opts.guard
      ? {
          layoutLimits: {
            poolPayouts: opts.guard.limits.pool_payouts,
            check: (count: number) => guard.checkLayout(count),
          },
        }
      : {}),
  });
  try {
    await service.init();
  } catch (e) {
    await outbox.close();
    clock.close();
    await store.close();
    await closeBackend();
    await releasePdfReader();
    throw e;
  }
  return { service, clock, outbox, releasePdfReader };
}

/** @internal One sandbox: a workspace's, or (with `front`) the default one the workspace host stands in front of. */
export async function createInstance(opts: SandboxOptions): Promise<Sandbox> {
  const urlProblem = opts.publicUrl === undefined ? undefined : publicUrlProblem(opts.publicUrl);
  if (urlProblem) throw new TypeError(`publicUrl ${JSON.stringify(opts.publicUrl)} ${urlProblem}`);
  const world = opts.world !== undefined ? parseWorld(opts.world, 'options.world') : loadWorld(opts.fixtures);
  const index = new WorldIndex(world);
  const opened = await openState(opts);
  const { store, secrets, certBase, closeBackend } = opened;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const urlSecret = secrets.url;
  let ready = false;
  let closed = false;
  const urls = { base: '', paymentPage: '', storage: '' };
  setBase(urls, opts.publicUrl !== undefined ? publicBase(opts.publicUrl) : 'http://paygate.local');
  const { service, clock, outbox, releasePdfReader } = await startService(opts, index, opened, urls, log);
  const { front } = opts;
  const adminToken = opts.adminToken ?? `pg_admin_${randomBytes(12).toString('hex')}`;
  const { limits, streams } = limitsOf(opts);
  const app = createApp({
    service,
    urls,
    adminToken,
    urlSecret,
    ready: () => ready && !closed && !service.stopped,
    log,
    outbox,
    fixtureFaults: world.faults,
    limits,
    streams,
    ...(front ? { workspaces: front.workspaces } : {}),
    ...(opts.adminCheck ? { isAdminToken: opts.adminCheck } : {}),
  });
  ready = true;
  const https = opts.https ? { store: certBase, publicUrl: opts.publicUrl } : undefined;
  // No async layer on the request path: the answer is passed on as it comes (a Response, or the promise of one); a
  // handler that throws gives a rejected promise, as an async function would.
  const answer = (request: Request): Response | Promise<Response> => {
    try {
      return front?.fetch ? front.fetch(request) : app.fetch(request);
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const serve = async (request: Request): Promise<Response> => answer(request);
  const listeners = new Listeners(
    answer,
    https,
    (url) => {
      if (!opts.publicUrl) setBase(urls, url);
      front?.onUrl(url);
    },
    limits.connections,
    log,
  );

  const sandbox: Sandbox = {
    world,
    index,
    service,
    clock,
    store,
    app,
    demo: demoInfo(world, index),
    urls,
    adminToken: front ? front.adminToken.shown : adminToken,
    adminTokenLast4: front ? front.adminToken.last4 : adminToken.slice(-4),
    webhooks: outbox,
    webhookSecret: outbox.optionSecret,
    get tls() {
      return listeners.tls;
    },
    fetch: serve,
    listen: (o = {}) => listeners.listen(o),
    async close() {
      if (closed) return;
      closed = true;
      await listeners.close();
      await front?.close();
      await outbox.close();
      clock.close();
      await store.close();
      await closeBackend();
      await front?.release();
      // The PDF worker is started by the first receipt upload; it stops when no open sandbox (or other holder) needs it.
      await releasePdfReader();
    },
  };
  return sandbox;
}

/** Point a sandbox's URLs at `base` (no trailing slash kept). */
export function setBase(urls: { base: string; paymentPage: string; storage: string }, base: string): void {
  urls.base = base.replace(/\/$/, '');
  urls.paymentPage = `${urls.base}/pay`;
  urls.storage = `${urls.base}/storage`;
}

export interface RunningSandbox {
  baseUrl: string;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** Create a sandbox and listen (default 127.0.0.1, port 0). */
export async function startSandbox(
  opts: SandboxOptions & { port?: number; host?: string } = {},
): Promise<RunningSandbox> {
  const sandbox = await createSandbox(opts);
  try {
    const { url } = await sandbox.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
    return { baseUrl: url, sandbox, close: () => sandbox.close() };
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}
