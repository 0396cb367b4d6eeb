// A process of a cluster (design A of docs/scale-out.md): every process is active and owns the workspaces whose
// lease it holds (leases.ts), each a whole sandbox of its own, written under the lease's epoch (backend.ts). Any
// process answers any request: a workspace held here is served here; one another live process holds is forwarded to
// it (forward.ts); one nobody holds is taken by the process the request reached. The upkeep — renewals, takeovers
// of expired leases, idle unloading, balance — runs on a timer (upkeep.ts).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DEFAULT_WORKSPACE, WORKSPACE_ID } from '../store/backend.js';
import { StoreUnavailableError } from '../store/errors.js';
import { createInstance, type Sandbox, type SandboxOptions } from '../emulator/sandbox.js';
import { Listeners } from '../emulator/listeners.js';
import { ClusterBackend } from './backend.js';
import { Forwarder, FORWARDED_BY } from './forward.js';
import { LeaseTable, type Owner } from './leases.js';
import { ensureClusterSchema } from './schema.js';
import { problem, readyz, status } from './status.js';
import { Upkeep } from './upkeep.js';

export interface ClusterOptions {
  /** The PostgreSQL database every process of the cluster shares. */
  store: string;
  fsync?: boolean;
  /** This process's id in the cluster. Default: host, pid and a random suffix. */
  id?: string;
  /** Where the other processes reach this one. Default: the URL it listens at. */
  address?: string;
  /** Real milliseconds a lease lasts without renewal. Default 1500. */
  leaseTtlMs?: number;
  /** Unload a workspace that had no request for this long (real ms), giving up its lease. Default: never. */
  idleUnloadMs?: number;
  /** Workspaces this process holds at most (its hot set). Default 64. */
  hotSet?: number;
  /** Take a fair share of the cluster's workspaces over time. Default true. */
  balance?: boolean;
  /** What every workspace's sandbox is made with (fixtures, clock, webhooks, limits, the admin token). */
  sandbox: SandboxOptions & { adminToken: string };
  log?: (line: string) => void;
}

/** A workspace held by this process. */
export interface Held {
  readonly id: string;
  readonly epoch: number;
  readonly sandbox: Sandbox;
  lastUsed: number;
  inflight: number;
  /** performance.now() until which the lease is known to be ours (renewal sent + TTL − margin). */
  validUntil: number;
  state: 'open' | 'closing';
  closed?: Promise<void>;
}

type Taken = Held | Owner | 'full' | 'moving';

const unavailable = (message: string) => problem(503, 'store_unavailable', message, { 'retry-after': '1' });

export class ClusterNode {
  readonly me: string;
  readonly ttlMs: number;
  readonly marginMs: number;
  readonly hotSet: number;
  readonly leases: LeaseTable;
  backend: ClusterBackend;
  readonly held = new Map<string, Held>();
  /** Leases taken whose workspace is still loading: renewed with the others (a slow load must not let them lapse). */
  readonly pending = new Map<string, { epoch: number; validUntil: number; lost: boolean }>();
  readonly #opening = new Map<string, Promise<Taken>>();
  readonly #owners = new Map<string, { owner: Owner; until: number }>();
  readonly #forwarder: Forwarder;
  readonly #listeners: Listeners;
  readonly upkeep: Upkeep;
  readonly log: (line: string) => void;
  url = '';
  address = '';
  /** performance.now() of the last renewal the database answered (sent at). */
  renewedAt = -Infinity;
  #closing = false;

  constructor(readonly opts: ClusterOptions) {
    this.me = opts.id ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.ttlMs = opts.leaseTtlMs ?? 1500;
    this.marginMs = Math.floor(this.ttlMs / 3);
    this.hotSet = opts.hotSet ?? 64;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.backend = this.#newBackend();
    this.leases = new LeaseTable(opts.store, this.me, this.ttlMs);
    this.#forwarder = new Forwarder(this.me);
    this.#listeners = new Listeners(this.fetch, undefined, () => {}, undefined, this.log);
    this.upkeep = new Upkeep(this);
  }

  #newBackend(): ClusterBackend {
    const b = new ClusterBackend({ url: this.opts.store, fsync: this.opts.fsync }, this.me);
    b.onFenced((ws) => {
      const h = this.held.get(ws);
      if (h) this.drop(h, 'another process took its lease over');
    });
    b.onLost((e) => this.#lostBackend(e));
    return b;
  }

  /** The writer's session died: every workspace is dropped (its writes failed); a new session serves the next ones. */
  #lostBackend(e: Error): void {
    if (this.#closing) return;
    this.log(`paygate cluster ${this.me}: ${e.message}`);
    const old = this.backend;
    this.backend = this.#newBackend();
    const all = [...this.held.values()];
    for (const h of all) this.drop(h, 'the database session was lost');
    void Promise.allSettled(all.map((h) => h.closed)).then(() => old.close());
  }

  /** Connect, create the cluster's tables, listen, register this process and start the upkeep. */
  async start(port: number, host: string): Promise<string> {
    await ensureClusterSchema(await this.backend.connect());
    this.url = (await this.#listeners.listen({ port, host })).url;
    this.address = this.opts.address ?? this.url;
    await this.leases.register(this.address, hostname());
    this.renewedAt = performance.now();
    this.upkeep.start();
    return this.url;
  }

  /** Whether this process can serve: its renewals reach the database in time. */
  get ready(): boolean {
    return !this.#closing && performance.now() < this.renewedAt + this.ttlMs - this.marginMs;
  }

  /** Answer any request: this process's own endpoints, else the workspace's (here, or forwarded to its owner). */
  readonly fetch = (request: Request): Response | Promise<Response> => {
    const url = request.url;
    const p = url.indexOf('/', url.indexOf('//') + 2);
    const path = url.slice(p);
    if (path === '/readyz' || path.startsWith('/readyz?')) return readyz(this);
    if (path === '/cluster/status' || path.startsWith('/cluster/status?')) return status(this, request);
    let id = DEFAULT_WORKSPACE;
    let inner = request;
    if (path.startsWith('/w/')) {
      const rest = path.slice(3);
      const cut = rest.search(/[/?#]/);
      id = cut < 0 ? rest : rest.slice(0, cut);
      const tail = cut < 0 ? '/' : rest.slice(cut);
      inner = strip(request, `${url.slice(0, p)}${tail.startsWith('/') ? tail : `/${tail}`}`);
    }
    if (!WORKSPACE_ID.test(id)) return problem(404, 'not_found', 'no such workspace: ids are [a-z0-9][a-z0-9_-]{0,63}');
    const h = this.held.get(id);
    if (h && h.state === 'open' && performance.now() < h.validUntil) return this.#serve(h, inner);
    return this.#route(id, request, inner);
  };

  async #route(id: string, request: Request, inner: Request): Promise<Response> {
    for (let tries = 0; tries < 3; tries++) {
      const h = this.held.get(id);
      if (h?.state === 'closing') {
        await h.closed;
        continue;
      }
      if (h) {
        if (performance.now() < h.validUntil) return this.#serve(h, inner);
        this.drop(h, 'its lease could not be renewed in time');
        continue;
      }
      if (!this.ready) return unavailable('this process cannot reach the database in time; retry (another process)');
      let got: Taken;
      try {
        got = await this.#take(id);
      } catch (e) {
        return unavailable(`workspace ${id} could not be opened here: ${(e as Error).message}`);
      }
      if (got === 'full')
        return unavailable(`this process holds ${this.hotSet} workspaces (--hot-set), none idle; retry`);
      if (got === 'moving' || (!('sandbox' in got) && request.headers.has(FORWARDED_BY)))
        return unavailable(`workspace ${id} is moving between processes; retry`);
      if ('sandbox' in got) return this.#serve(got, inner);
      try {
        return await this.#forwarder.forward(got.address, request);
      } catch (e) {
        this.#owners.delete(id);
        this.#forwarder.drop(got.address);
        // Nothing listens there: the owner is gone. End its lease now rather than at its expiry (were it alive after
        // all, its writes would be refused: the epoch fences them); the client's retry takes the workspace here.
        if ((e as { code?: string }).code === 'ECONNREFUSED') await this.leases.expire(id, got.id).catch(() => {});
        return unavailable(`workspace ${id}: its owner ${got.id} cannot be reached (${(e as Error).message}); retry`);
      }
    }
    return unavailable(`workspace ${id} is moving between processes; retry`);
  }

  #serve(h: Held, request: Request): Response | Promise<Response> {
    h.lastUsed = performance.now();
    h.inflight++;
    const done = () => void h.inflight--;
    try {
      const r = h.sandbox.fetch(request);
      r.then(done, done);
      return r;
    } catch (e) {
      done();
      throw e;
    }
  }

  /** The workspace held here (taken now if free), or its owner's address, once per workspace at a time. */
  #take(id: string): Promise<Taken> {
    const cached = this.#owners.get(id);
    if (cached && cached.until > performance.now()) return Promise.resolve(cached.owner);
    let p = this.#opening.get(id);
    if (!p) {
      p = this.#open(id).finally(() => this.#opening.delete(id));
      this.#opening.set(id, p);
    }
    return p;
  }

  /** Take the lease of `id` and open its sandbox (upkeep's takeovers too). */
  async #open(id: string): Promise<Taken> {
    if (this.held.size + this.#opening.size >= this.hotSet && !(await this.upkeep.evictOne())) return 'full';
    const sent = performance.now();
    const r = await this.leases.acquire(id);
    if ('owner' in r) {
      if (!r.owner) return 'moving';
      this.#owners.set(id, { owner: r.owner, until: performance.now() + this.marginMs });
      return r.owner;
    }
    const backend = this.backend;
    backend.hold(id, r.epoch);
    const lease = { epoch: r.epoch, validUntil: sent + this.ttlMs - this.marginMs, lost: false };
    this.pending.set(id, lease);
    let sandbox: Sandbox;
    try {
      const base = this.opts.sandbox.publicUrl ?? this.url;
      sandbox = await createInstance({
        ...this.opts.sandbox,
        backend,
        workspace: id,
        publicUrl: id === DEFAULT_WORKSPACE ? base : `${base.replace(/\/$/, '')}/w/${id}`,
        log: this.log,
      });
    } catch (e) {
      backend.hold(id, undefined);
      await this.leases.release(id, r.epoch).catch(() => {});
      throw e;
    } finally {
      this.pending.delete(id);
    }
    if (lease.lost || performance.now() >= lease.validUntil) {
      if (backend.epochOf(id) === r.epoch) backend.hold(id, undefined);
      await sandbox.close().catch(() => {});
      return 'moving';
    }
    const h: Held = {
      id,
      epoch: r.epoch,
      sandbox,
      lastUsed: performance.now(),
      inflight: 0,
      validUntil: lease.validUntil,
      state: 'open',
    };
    this.held.set(id, h);
    this.#owners.delete(id);
    return h;
  }

  /** Take `id` now if it is free (a takeover by the upkeep). */
  async takeOver(id: string): Promise<boolean> {
    if (this.held.has(id) || this.#opening.has(id)) return false;
    return typeof (await this.#take(id)) === 'object' && this.held.has(id);
  }

  /** Stop serving `h` at once (its lease is lost or may be): no timer runs again, nothing more is written. */
  drop(h: Held, why: string): void {
    if (h.state === 'closing') return;
    h.state = 'closing';
    this.held.delete(h.id);
    if (this.backend.epochOf(h.id) === h.epoch) this.backend.hold(h.id, undefined);
    this.log(`paygate cluster ${this.me}: workspace ${h.id} (epoch ${h.epoch}) dropped: ${why}`);
    h.sandbox.service.stop(new StoreUnavailableError(new Error(`workspace ${h.id} dropped: ${why}`)));
    h.closed = h.sandbox.close().catch((e: unknown) => this.log(`closing ${h.id}: ${(e as Error).message}`));
  }

  /** Give `h` up: its last writes and snapshot under its epoch, then the lease (to `to`, when it asked for it). */
  release(h: Held, to: string | null = null): Promise<void> {
    if (h.state === 'closing') return h.closed ?? Promise.resolve();
    h.state = 'closing';
    h.closed = (async () => {
      try {
        await h.sandbox.close();
        await this.leases.release(h.id, h.epoch, to);
      } catch (e) {
        this.log(`paygate cluster ${this.me}: releasing ${h.id}: ${(e as Error).message}`);
      } finally {
        this.held.delete(h.id);
        if (this.backend.epochOf(h.id) === h.epoch) this.backend.hold(h.id, undefined);
      }
    })();
    return h.closed;
  }

  /** Leave the cluster: every workspace written and released, this process's row removed. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.upkeep.stop();
    await this.#listeners.close();
    await Promise.all([...this.held.values()].map((h) => this.release(h)));
    await this.leases.leave(new Map());
    await this.#forwarder.close();
    await this.leases.close();
    await this.backend.close();
  }
}

/** `request` at `url` (its workspace prefix stripped), everything else kept. */
function strip(request: Request, url: string): Request {
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    ...(body ? { duplex: 'half' } : {}),
  } as RequestInit);
}
