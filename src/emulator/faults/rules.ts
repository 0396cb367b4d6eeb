// One injected fault as the sandbox keeps it: what it matches (an endpoint, a shop or every shop), its lifetime (the
// next N requests, or a seeded probability, or until removed), its counters, and the deterministic draw that decides
// whether a request with a probability is hit.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { EndpointId } from '../../contract/endpoints.js';
import { faultCase, faultEndpoint, type Fault, type FaultCase, type FaultInput } from '../../contract/faults.js';
import type { DriftSpec } from './drift.js';

/** A fault as validated by the contract's FaultInput. */
export type ParsedFault = z.output<typeof FaultInput>;

export interface FaultRule {
  readonly id: string;
  readonly endpoint: EndpointId;
  readonly kind: Fault['kind'];
  /** The answer of a `status` fault. */
  readonly answer: FaultCase | undefined;
  readonly latencyMs: number | undefined;
  /** What a `drift` fault changes in the answer. */
  readonly drift: DriftSpec | undefined;
  readonly shopId: string | null;
  readonly count: number | null;
  remaining: number | null;
  readonly probability: number | null;
  readonly seed: number | null;
  matched: number;
  fired: number;
  readonly source: Fault['source'];
}

/** A rule of a validated fault (the contract checked the endpoint, the one effect and the status it names). */
export function ruleOf(f: ParsedFault, id: string, source: Fault['source']): FaultRule {
  const endpoint = faultEndpoint(f.endpoint)!;
  const kind =
    f.drift !== undefined
      ? 'drift'
      : f.status !== undefined
        ? 'status'
        : f.latency_ms !== undefined
          ? 'latency'
          : 'drop';
  return {
    id,
    endpoint,
    kind,
    answer: kind === 'status' ? faultCase(endpoint, f.status!, f.code) : undefined,
    latencyMs: f.latency_ms,
    drift:
      f.drift !== undefined ? { kind: f.drift, field: f.field, to: f.to, value: f.value, status: f.status } : undefined,
    shopId: f.shop_id ?? null,
    count: f.count ?? null,
    remaining: f.count ?? null,
    probability: f.probability ?? null,
    seed: f.probability !== undefined ? (f.seed ?? 0) : null,
    matched: 0,
    fired: 0,
    source,
  };
}

/** Whether the rule applies to a request of `shopId` ('' on the probes) to `endpoint`, and is not spent. */
export function matches(rule: FaultRule, endpoint: EndpointId, shopId: string): boolean {
  return rule.endpoint === endpoint && (rule.shopId === null || rule.shopId === shopId) && rule.remaining !== 0;
}

/**
 * The n-th draw (n from 1) of a seed, in [0, 1): the first 48 bits of SHA-256("<seed>:<n>"). Stateless, so the
 * same seed fires on the same matching requests in every run, whatever else the sandbox does.
 */
export function draw(seed: number, n: number): number {
  return createHash('sha256').update(`${seed}:${n}`).digest().readUIntBE(0, 6) / 2 ** 48;
}

/** Consider the rule for one matching request: counts it, and says whether it is applied (then counts that too). */
export function fires(rule: FaultRule): boolean {
  rule.matched++;
  if (rule.probability !== null && draw(rule.seed ?? 0, rule.matched) >= rule.probability) return false;
  rule.fired++;
  if (rule.remaining !== null) rule.remaining--;
  return true;
}

/** The rule as the fault controls show it. */
export function toWireFault(rule: FaultRule): Fault {
  return {
    id: rule.id,
    endpoint: rule.endpoint,
    kind: rule.kind,
    ...(rule.answer ? { status: rule.answer.status, code: rule.answer.code } : {}),
    ...(rule.latencyMs !== undefined ? { latency_ms: rule.latencyMs } : {}),
    ...(rule.drift ? driftWire(rule.drift) : {}),
    shop_id: rule.shopId,
    count: rule.count,
    remaining: rule.remaining,
    probability: rule.probability,
    seed: rule.seed,
    matched: rule.matched,
    fired: rule.fired,
    source: rule.source,
  };
}

/** A drift's own fields as the fault controls show them (only those it has). */
function driftWire(d: DriftSpec): Pick<Fault, 'drift' | 'status' | 'field' | 'to' | 'value'> {
  return {
    drift: d.kind,
    ...(d.status !== undefined ? { status: d.status } : {}),
    ...(d.field !== undefined ? { field: d.field } : {}),
    ...(d.to !== undefined ? { to: d.to } : {}),
    ...(d.value !== undefined ? { value: d.value } : {}),
  };
}
