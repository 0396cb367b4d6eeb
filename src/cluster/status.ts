// A cluster process's own endpoints: `/readyz` (can it serve: its renewals reach the database in time) and
// `/cluster/status` (admin token): every process of the cluster, its address, the workspaces it holds and their
// lease ages, from the database — any process answers it.
import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ClusterNode } from './node.js';

/** The emulator's error shape, `{ code, message }`. */
export function problem(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ code, message }, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function readyz(node: ClusterNode): Response {
  const body = {
    status: node.ready ? 'ready' : 'unavailable',
    node: node.me,
    workspaces: [...node.held.values()].filter((h) => h.state === 'open').length,
    hot_set: node.hotSet,
    last_renewal_ms: Math.round(performance.now() - node.renewedAt),
  };
  return Response.json(body, { status: node.ready ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}

export interface ClusterStatus {
  node: string;
  lease_ttl_ms: number;
  nodes: {
    id: string;
    address: string;
    pid: number;
    host: string;
    alive: boolean;
    started_at: string;
    seen_at: string;
    workspaces: { id: string; epoch: number; lease_age_ms: number; expires_in_ms: number }[];
  }[];
  /** Workspaces with a lease no live process holds (released, idle-unloaded, or expired awaiting a takeover). */
  unowned: { id: string; epoch: number; expires_in_ms: number }[];
}

export async function status(node: ClusterNode, request: Request): Promise<Response> {
  const token = request.headers.get('x-admin-token');
  if (!token) return problem(401, 'missing_admin_token', 'send the admin token as X-Admin-Token');
  if (!timingSafeEqual(digest(token), digest(node.opts.sandbox.adminToken)))
    return problem(401, 'invalid_admin_token', 'the X-Admin-Token is not this cluster’s admin token');
  let nodes, leases;
  try {
    [nodes, leases] = await Promise.all([node.leases.nodes(), node.leases.leases()]);
  } catch (e) {
    return problem(503, 'store_unavailable', `the database cannot be read: ${(e as Error).message}`);
  }
  const alive = new Set(nodes.filter((n) => n.alive).map((n) => n.id));
  const body: ClusterStatus = {
    node: node.me,
    lease_ttl_ms: node.ttlMs,
    nodes: nodes.map((n) => ({
      ...n,
      workspaces: leases
        .filter((l) => l.owner === n.id && l.expires_in_ms > 0)
        .map((l) => ({ id: l.workspace, epoch: l.epoch, lease_age_ms: l.age_ms, expires_in_ms: l.expires_in_ms })),
    })),
    unowned: leases
      .filter((l) => !l.owner || l.expires_in_ms <= 0 || !alive.has(l.owner))
      .map((l) => ({ id: l.workspace, epoch: l.epoch, expires_in_ms: l.expires_in_ms })),
  };
  return Response.json(body, { headers: { 'cache-control': 'no-store' } });
}
