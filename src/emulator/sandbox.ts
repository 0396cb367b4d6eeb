// createSandbox wires fixtures, store, clock, service and the h3 app into one object; startSandbox also listens. The
// shapes are in sandbox-types.ts; the service and what it is built from in sandbox-service.ts.
import { randomBytes } from 'node:crypto';
import type { World } from '../domain/world.js';
import { WorldIndex } from '../domain/world.js';
import { loadWorld, parseWorld } from '../world/load.js';
import { DEFAULT_WORKSPACE } from '../store/backend.js';
import { openState, type OpenedState } from './open-state.js';
import { createApp } from './app.js';
import { publicBase, publicUrlProblem } from './public-url.js';
import { Listeners } from './listeners.js';
import { limitsOf, withStreamGate } from './http/stream-gate.js';
import { startService } from './sandbox-service.js';
import type { DemoInfo, Sandbox, SandboxOptions, SandboxUrls } from './sandbox-types.js';

export type { DemoInfo, DemoShop, Sandbox, SandboxOptions, SandboxUrls, SandboxWebhooks } from './sandbox-types.js';

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

/** @internal One sandbox: a workspace's, or (with `front`) the default one the workspace host stands in front of. */
export async function createInstance(opts: SandboxOptions): Promise<Sandbox> {
  const urlProblem = opts.publicUrl === undefined ? undefined : publicUrlProblem(opts.publicUrl);
  if (urlProblem) throw new TypeError(`publicUrl ${JSON.stringify(opts.publicUrl)} ${urlProblem}`);
  const world = opts.world !== undefined ? parseWorld(opts.world, 'options.world') : loadWorld(opts.fixtures);
  const index = new WorldIndex(world);
  const opened = await openState(opts);
  const { secrets, certBase } = opened;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const urlSecret = secrets.url;
  let ready = false;
  let closed = false;
  const urls = { base: '', paymentPage: '', storage: '' };
  setBase(urls, opts.publicUrl !== undefined ? publicBase(opts.publicUrl) : 'http://paygate.local');
  const started = await startService(opts, index, opened, urls, log, world.faults);
  const { service, outbox, amountReads, faults } = started;
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
    amountReads,
    faults,
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

  const parts = { ...started, world, index, app, adminToken, urls, listeners };
  return sandboxOf(opts, opened, parts, () => {
    if (closed) return false;
    closed = true;
    return true;
  });
}

/** The parts of one sandbox, as createInstance built them. */
interface InstanceParts extends Awaited<ReturnType<typeof startService>> {
  world: World;
  index: WorldIndex;
  app: ReturnType<typeof createApp>;
  adminToken: string;
  urls: SandboxUrls;
  listeners: Listeners;
}

/** The Sandbox object over its parts; `closing()` is true the first time it is closed (close is idempotent). */
function sandboxOf(opts: SandboxOptions, opened: OpenedState, parts: InstanceParts, closing: () => boolean): Sandbox {
  const { world, index, service, clock, outbox, releasePdfReader, app, adminToken, urls, listeners } = parts;
  const { store, closeBackend } = opened;
  const { front } = opts;
  const serve = async (request: Request): Promise<Response> => listeners.fetch(request);
  return {
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
      if (!closing()) return;
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
