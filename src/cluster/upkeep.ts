// What a cluster process does on its own, every fifth of a lease's TTL: renew its leases (and heartbeat) in one
// statement; stop serving any workspace whose lease it could not renew in time (TTL − margin after the renewal was
// sent, so before the lease can expire in the database); take over the workspaces whose owner let the lease expire
// (a dead or cut-off process) or that were handed to it; unload idle workspaces; and ask for a fair share.
import { performance } from 'node:perf_hooks';
import type { ClusterNode, Held } from './node.js';

export class Upkeep {
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;
  #sweeping = false;
  #ticks = 0;
  /** When this process last asked for a workspace (balance: one at a time). */
  #wanted = -Infinity;

  constructor(readonly node: ClusterNode) {}

  start(): void {
    this.#timer = setInterval(() => this.#tick(), Math.max(20, Math.floor(this.node.ttlMs / 5)));
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #tick(): void {
    const node = this.node;
    const now = performance.now();
    for (const h of [...node.held.values()])
      if (h.state === 'open' && now >= h.validUntil) node.drop(h, 'its lease could not be renewed in time');
    if (!this.#renewing) {
      this.#renewing = true;
      void this.#renew().finally(() => (this.#renewing = false));
    }
    if (!this.#sweeping && node.ready) {
      this.#sweeping = true;
      const balance = node.opts.balance !== false && ++this.#ticks % 5 === 0;
      void this.#sweep(balance)
        .catch((e: unknown) => node.log(`paygate cluster ${node.me}: upkeep: ${(e as Error).message}`))
        .finally(() => (this.#sweeping = false));
    }
  }

  async #renew(): Promise<void> {
    const node = this.node;
    const held = new Map<string, number>();
    for (const h of node.held.values()) if (h.state === 'open') held.set(h.id, h.epoch);
    for (const [id, l] of node.pending) held.set(id, l.epoch);
    const sent = performance.now();
    let kept: Map<string, string | null>;
    try {
      kept = await node.leases.renew(held);
    } catch {
      return; // the deadlines run on: past them, the workspaces are dropped (#tick)
    }
    node.renewedAt = sent;
    let handing = [...node.held.values()].some((h) => h.state === 'closing');
    for (const [id, epoch] of held) {
      const p = node.pending.get(id);
      if (p?.epoch === epoch) {
        if (kept.has(id)) p.validUntil = sent + node.ttlMs - node.marginMs;
        else p.lost = true;
      }
      const h = node.held.get(id);
      if (!h || h.epoch !== epoch || h.state !== 'open') continue;
      if (!kept.has(id)) {
        node.drop(h, 'its lease was taken over');
        continue;
      }
      h.validUntil = sent + node.ttlMs - node.marginMs;
      const to = kept.get(id);
      // Asked for by another process (balance): handed over one at a time, never a pause for all.
      if (to && to !== node.me && !handing) {
        handing = true;
        void node.release(h, to);
      }
    }
  }

  async #sweep(balance: boolean): Promise<void> {
    const node = this.node;
    const idle = node.opts.idleUnloadMs;
    if (idle !== undefined) {
      const now = performance.now();
      for (const h of [...node.held.values()])
        if (h.state === 'open' && h.inflight === 0 && now - h.lastUsed >= idle) void node.release(h);
    }
    const room = node.hotSet - node.held.size;
    if (room > 0) {
      const orphans = await node.leases.orphans(room);
      await Promise.all(
        orphans.map((id) =>
          node
            .takeOver(id)
            .catch((e: unknown) => node.log(`paygate cluster ${node.me}: taking over ${id}: ${(e as Error).message}`)),
        ),
      );
    }
    if (balance) await this.#balance();
  }

  /** Below a fair share of the workspaces held in the cluster: ask the busiest process for one of its workspaces. */
  async #balance(): Promise<void> {
    const node = this.node;
    if (performance.now() - this.#wanted < node.ttlMs * 2 || node.held.size >= node.hotSet) return;
    const [nodes, leases] = await Promise.all([node.leases.nodes(), node.leases.leases()]);
    const alive = new Set(nodes.filter((n) => n.alive).map((n) => n.id));
    if (alive.size < 2 || !alive.has(node.me)) return;
    const counts = new Map<string, string[]>([...alive].map((id) => [id, []]));
    for (const l of leases) if (l.owner && l.expires_in_ms > 0) counts.get(l.owner)?.push(l.workspace);
    const total = [...counts.values()].reduce((n, l) => n + l.length, 0);
    const mine = counts.get(node.me)?.length ?? 0;
    if (mine >= Math.floor(total / alive.size)) return;
    const [busiest, theirs] = [...counts].sort((a, b) => b[1].length - a[1].length)[0]!;
    if (busiest === node.me || theirs.length <= mine + 1) return;
    this.#wanted = performance.now();
    await node.leases.want(theirs[Math.floor(Math.random() * theirs.length)]!);
  }

  /** Make room in the hot set: release the workspace idle longest (none in flight). */
  async evictOne(): Promise<boolean> {
    let oldest: Held | undefined;
    for (const h of this.node.held.values())
      if (h.state === 'open' && h.inflight === 0 && (!oldest || h.lastUsed < oldest.lastUsed)) oldest = h;
    if (!oldest) return false;
    await this.node.release(oldest);
    return true;
  }
}
