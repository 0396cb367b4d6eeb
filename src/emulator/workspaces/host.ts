// The host of a server's workspaces: the default workspace (the sandbox `sandbox start` has always run) and up to
// MAX_WORKSPACES others, each a whole sandbox of its own over the same backend, so nothing crosses between them by
// construction. The host answers every request: under `/w/<id>/…` the workspace named (the prefix stripped: each
// workspace's public base URL is `<base>/w/<id>`); otherwise the one whose credential it is (X-Admin-Token, then
// X-API-Key); a credential no workspace knows, or none, goes to the default workspace (which answers 401 as ever).
// Every workspace registered is reopened when the server starts.
import { randomBytes } from 'node:crypto';
import {
  MAX_WORKSPACES,
  type CreatedWorkspace,
  type CreateWorkspaceRequest,
  type WorkspaceInfo,
} from '../../contract/workspaces.js';
import { backendFor, type StoreBackend } from '../../store/backend.js';
import { ApiError } from '../http/errors.js';
import { echo } from '../../contract/echo.js';
import { hashApiKey } from '../runtime/seed.js';
import type { Sandbox, SandboxOptions } from '../sandbox.js';
import type { SandboxFront } from '../sandbox-types.js';
import { setBase } from '../sandbox.js';
import { newWorkspaceRecord, type FixtureSource } from './create.js';
import { Registry, sha256 } from './registry.js';
import { unknownWorkspace } from './unknown.js';
import type { WorkspaceControl, WorkspaceRecord } from './types.js';

type MakeSandbox = (opts: SandboxOptions) => Promise<Sandbox>;

/** A workspace open on this server: its record, its sandbox and the admin token its own app checks. */
interface Space {
  readonly id: string;
  readonly record: WorkspaceRecord | undefined;
  readonly sandbox: Sandbox;
  /** The admin token the workspace's app knows (random per process); the host maps the real one's hash to it. */
  readonly token: string;
  readonly adminHash: string;
  /** Hashes of more admin tokens it takes (the default workspace's added ones: `sandbox start --add-admin-token`). */
  readonly alsoAdmin?: ReadonlySet<string>;
}

const newToken = () => `pg_admin_${randomBytes(12).toString('hex')}`;

/** Where the path of `url` starts (after scheme and authority). */
function pathStart(url: string): number {
  return url.indexOf('/', url.indexOf('//') + 2);
}

/** `request` sent to `url`, with `headers` replaced. */
function forward(request: Request, url: string, headers: Record<string, string> = {}): Request {
  const h = new Headers(request.headers);
  for (const [k, v] of Object.entries(headers)) h.set(k, v);
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
  return new Request(url, {
    method: request.method,
    headers: h,
    body,
    signal: request.signal,
    ...(body ? { duplex: 'half' } : {}),
  } as RequestInit);
}

export class WorkspaceHost implements WorkspaceControl {
  readonly #spaces = new Map<string, Space>();
  readonly #byAdmin = new Map<string, Space>();
  readonly #creating = new Set<string>();

  constructor(
    private readonly def: Space,
    private readonly registry: Registry,
    private readonly backend: StoreBackend,
    private readonly opts: SandboxOptions,
    private readonly make: MakeSandbox,
  ) {}

  /** The public base URL of workspace `id`. */
  baseOf(id: string): string {
    return `${this.def.sandbox.urls.base}/w/${id}`;
  }

  /** The default workspace's base moved (listen learnt its URL): every workspace's follows. */
  rebase(): void {
    for (const s of this.#spaces.values()) setBase(s.sandbox.urls, this.baseOf(s.id));
  }

  /** Open every registered workspace (server start). */
  async reopen(): Promise<void> {
    for (const record of this.registry.workspaces()) {
      try {
        this.add(await this.open(record, false));
      } catch (e) {
        throw new Error(`could not reopen workspace ${record.id}: ${(e as Error).message}`, { cause: e });
      }
    }
  }

  private async open(record: WorkspaceRecord, created: boolean): Promise<Space> {
    const token = newToken();
    const o = this.opts;
    const sandbox = await this.make({
      backend: this.backend,
      workspace: record.id,
      world: record.world,
      frozenClock: record.clock === 'frozen',
      // A new workspace starts at its start time; a reopened one resumes where its store's clock stood.
      ...(created ? { startTime: record.start } : {}),
      adminToken: token,
      adminCheck: (t) => sha256(t) === record.admin.hash,
      publicUrl: this.baseOf(record.id),
      guard: record,
      ...(o.log ? { log: o.log } : {}),
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.streamGate ? { streamGate: o.streamGate } : {}),
      ...(o.realNow ? { realNow: o.realNow } : {}),
      ...(o.webhookTimeoutMs !== undefined ? { webhookTimeoutMs: o.webhookTimeoutMs } : {}),
      ...(o.webhookDispatcher ? { webhookDispatcher: o.webhookDispatcher } : {}),
    });
    return { id: record.id, record, sandbox, token, adminHash: record.admin.hash };
  }

  private add(space: Space): void {
    this.#spaces.set(space.id, space);
    this.#byAdmin.set(space.adminHash, space);
  }

  /** Answer a request: route it to its workspace. */
  fetch(request: Request): Response | Promise<Response> {
    const url = request.url;
    const p = pathStart(url);
    if (url.startsWith('/w/', p)) return this.prefixed(request, url, p);
    if (this.#spaces.size === 0 && this.def.sandbox.adminToken !== undefined && !this.def.alsoAdmin?.size)
      return this.def.sandbox.app.fetch(request);
    const admin = request.headers.get('x-admin-token');
    if (admin) {
      const h = sha256(admin);
      const space = takesAdmin(this.def, h) ? this.def : this.#byAdmin.get(h);
      return space ? this.send(space, request, url, admin) : this.def.sandbox.app.fetch(request);
    }
    const key = request.headers.get('x-api-key');
    if (key && this.#spaces.size > 0) {
      const h = hashApiKey(key);
      if (!this.def.sandbox.store.state.keyByTokenHash(h)) {
        for (const s of this.#spaces.values())
          if (s.sandbox.store.state.keyByTokenHash(h)) return s.sandbox.app.fetch(request);
      }
    }
    return this.def.sandbox.app.fetch(request);
  }

  /** `/w/<id>/…`: the workspace named, the prefix stripped; its admin token is the only one it takes. */
  private async prefixed(request: Request, url: string, p: number): Promise<Response> {
    const rest = url.slice(p + 3);
    const cut = rest.search(/[/?#]/);
    const id = cut < 0 ? rest : rest.slice(0, cut);
    const space = id === 'default' ? this.def : this.#spaces.get(id);
    const tail = cut < 0 ? '' : rest.slice(cut);
    const inner = `${url.slice(0, p)}${tail.startsWith('/') ? tail : `/${tail}`}`;
    const admin = request.headers.get('x-admin-token');
    if (!space) return unknownWorkspace(request, inner, id, admin !== null && sha256(admin) === this.def.adminHash);
    return this.send(space, forward(request, inner), inner, admin);
  }

  /** Send to `space`, its admin token (when the request carries it) replaced by the one its app checks. */
  private send(space: Space, request: Request, url: string, admin: string | null): Response | Promise<Response> {
    if (admin === null || admin === space.token || !takesAdmin(space, sha256(admin)))
      return space.sandbox.app.fetch(request);
    return space.sandbox.app.fetch(forward(request, url, { 'x-admin-token': space.token }));
  }

  async create(request: CreateWorkspaceRequest): Promise<CreatedWorkspace> {
    const max = this.opts.maxWorkspaces ?? MAX_WORKSPACES;
    if (this.#spaces.size + this.#creating.size >= max) {
      throw new ApiError(
        'workspace_limit',
        `this server holds ${max} workspaces, its limit (sandbox start --max-workspaces): delete one (paygate workspace delete <id>) first`,
      );
    }
    const id = request.id ?? `ws_${randomBytes(5).toString('hex')}`;
    if (this.#spaces.has(id) || this.#creating.has(id))
      throw new ApiError(
        'workspace_exists',
        `workspace ${echo(id)} exists: pick another id, or delete it first (paygate workspace delete ${echo(id)})`,
      );
    this.#creating.add(id);
    try {
      const source: FixtureSource = { fixtures: this.opts.fixtures, world: this.opts.world };
      const { record, adminToken, keys } = newWorkspaceRecord(id, request, source, (this.opts.realNow ?? Date.now)());
      await this.backend.drop(id); // what a create that never got registered may have left
      const space = await this.open(record, true);
      try {
        await this.registry.put(record);
      } catch (e) {
        await space.sandbox.close();
        await this.backend.drop(id);
        throw e;
      }
      this.add(space);
      return { ...this.info(space), admin_token: adminToken, keys };
    } finally {
      this.#creating.delete(id);
    }
  }

  list(): WorkspaceInfo[] {
    return [...this.#spaces.values()].map((s) => this.info(s));
  }

  async remove(id: string): Promise<void> {
    if (id === 'default')
      throw new ApiError(
        'workspace_forbidden',
        'the default workspace cannot be deleted; reset it instead (paygate sandbox reset)',
      );
    const space = this.#spaces.get(id);
    if (!space)
      throw new ApiError('workspace_not_found', `no workspace ${echo(id)}; list them with paygate workspace list`);
    this.#spaces.delete(id);
    this.#byAdmin.delete(space.adminHash);
    // What is in flight in it ends now: creates waiting on the provider answer 404, its streams end, timers stop.
    space.sandbox.service.stop(
      new ApiError('workspace_not_found', `workspace ${id} was deleted while this request was in flight`),
    );
    await this.registry.remove(id);
    await space.sandbox.close();
    await this.backend.drop(id);
  }

  private info(space: Space): WorkspaceInfo {
    const { sandbox, record } = space;
    return {
      id: space.id,
      base_url: sandbox.urls.base,
      created_at: record?.created_at ?? '',
      clock: { frozen: sandbox.clock.frozen, now: new Date(sandbox.clock.now()).toISOString() },
      shops: sandbox.world.shops.map((s) => ({ id: s.id, name: s.name })),
      operations: sandbox.store.state.operations.size,
      limits: record?.limits ?? { operations: 0, pool_payouts: 0 },
      admin_token_last4: record?.admin.last4 ?? '',
    };
  }

  /** Close every workspace but the default one (its sandbox closes itself). */
  async close(): Promise<void> {
    const spaces = [...this.#spaces.values()];
    this.#spaces.clear();
    this.#byAdmin.clear();
    await Promise.all(spaces.map((s) => s.sandbox.close()));
  }
}

/** Whether `space` takes the admin token of SHA-256 `hash`. */
function takesAdmin(space: Pick<Space, 'adminHash' | 'alsoAdmin'>, hash: string): boolean {
  return hash === space.adminHash || space.alsoAdmin?.has(hash) === true;
}

/**
 * The default workspace's admin token: the one given, else the one a store kept (by hash) — with `addAdminToken`, a
 * new one shown and added beside it —, else a new one.
 */
async function adminTokenOf(
  opts: SandboxOptions,
  registry: Registry,
): Promise<{ inProcess: string; shown: string | undefined; hash: string; last4: string }> {
  const stored = registry.adminToken();
  const given = opts.adminToken;
  if (given === undefined && stored && opts.addAdminToken) {
    const added = newToken();
    await registry.addAdminToken(added);
    return { inProcess: newToken(), shown: added, hash: stored.hash, last4: added.slice(-4) };
  }
  if (given === undefined && stored) return { inProcess: newToken(), shown: undefined, ...stored };
  const token = given ?? newToken();
  const hash = sha256(token);
  if (stored?.hash !== hash) await registry.setAdminToken(token);
  return { inProcess: token, shown: token, hash, last4: token.slice(-4) };
}

/** The default workspace's sandbox with the workspace host in front of it (createSandbox). */
export async function hostSandbox(opts: SandboxOptions, make: MakeSandbox): Promise<Sandbox> {
  const backend = opts.backend ?? (await backendFor(opts.store, opts.fsync));
  let released = false;
  const release = async () => {
    if (released || opts.backend) return;
    released = true;
    await backend.close();
  };
  let registry: Registry | undefined;
  try {
    if (opts.reset) await backend.reset();
    registry = await Registry.open(backend);
    const reg = registry;
    const admin = await adminTokenOf(opts, reg);
    let host: WorkspaceHost | undefined;
    const front: SandboxFront = {
      fetch: undefined,
      workspaces: { create: (r) => host!.create(r), list: () => host!.list(), remove: (id) => host!.remove(id) },
      adminToken: { shown: admin.shown, last4: admin.last4 },
      onUrl: () => host?.rebase(),
      close: async () => {
        await host?.close();
        await reg.close();
      },
      release,
    };
    const alsoAdmin = new Set(reg.addedAdminTokens());
    const adminCheck = (t: string) => takesAdmin({ adminHash: admin.hash, alsoAdmin }, sha256(t));
    const sandbox = await make({ ...opts, backend, reset: false, adminToken: admin.inProcess, adminCheck, front });
    const h = new WorkspaceHost(
      { id: 'default', record: undefined, sandbox, token: admin.inProcess, adminHash: admin.hash, alsoAdmin },
      reg,
      backend,
      opts,
      make,
    );
    host = h;
    try {
      await h.reopen();
    } catch (e) {
      await sandbox.close();
      throw e;
    }
    front.fetch = (r) => h.fetch(r);
    return sandbox;
  } catch (e) {
    await registry?.close().catch(() => undefined);
    await release().catch(() => undefined);
    throw e;
  }
}
