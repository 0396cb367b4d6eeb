// The faults in force and how they act on a gateway request (src/contract/faults.ts): after authentication (a 401
// stays a 401), latency holds the request on the sandbox clock, a status fault answers the spec's error instead of
// the handler, and a dropped response lets the handler run and commit, then closes the connection. Faults live in
// memory: the fixtures' `faults` are applied at start and again on every reset; the controls' are forgotten then.
import { endpoints, type EndpointId } from '../../contract/endpoints.js';
import { MAX_FAULTS, type Fault, type FaultEvent } from '../../contract/faults.js';
import type { EndpointRow } from '../../contract/endpoint-row.js';
import { iso } from '../../domain/state.js';
import { ApiError, type ErrorCode } from '../http/errors.js';
import { echo } from '../../contract/echo.js';
import type { Call } from '../http/handler.js';
import type { GatewayService } from '../runtime/service.js';
import { applyDrift, driftApplies } from './drift.js';
import { FaultHistory } from './history.js';
import { answeredOperationId, dropConnection, peekOperationRef } from './request.js';
import { fires, matches, ruleOf, toWireFault, type FaultRule, type ParsedFault } from './rules.js';

/** The gateway endpoint of a row; a sandbox control is none (no fault applies to the controls). */
const gatewayEndpoint = (id: string): EndpointId | undefined =>
  Object.hasOwn(endpoints, id) ? (id as EndpointId) : undefined;

export class FaultInjector {
  private rules: FaultRule[] = [];
  private next = 1;
  /** Requests held by a latency fault: released by a reset, whose clock drops their timers. */
  private readonly waiting = new Set<() => void>();
  readonly history = new FaultHistory();

  constructor(
    /** What the faults read of the service: its world, its clock, and an operation by reference. */
    private readonly service: Pick<GatewayService, 'world' | 'clock' | 'find'>,
    /** The fixtures' faults, validated by the fixture schema; applied now and on every reset. */
    private readonly fixtures: readonly ParsedFault[] = [],
  ) {
    this.reset();
  }

  list(): Fault[] {
    return this.rules.map(toWireFault);
  }

  /** Add one fault next to those in force (409 fault_limit past MAX_FAULTS, 404 shop_not_found). */
  add(input: ParsedFault, source: Fault['source'] = 'control'): Fault {
    if (this.rules.length >= MAX_FAULTS) {
      throw new ApiError(
        'fault_limit',
        `at most ${MAX_FAULTS} faults are in force at once; remove some (DELETE the fault, or clear them all) first`,
      );
    }
    this.checkShop([input]);
    const rule = ruleOf(input, `flt_${this.next++}`, source);
    this.rules.push(rule);
    return toWireFault(rule);
  }

  /** Replace every fault with `inputs` (all or none: an unknown shop changes nothing). */
  set(inputs: readonly ParsedFault[]): Fault[] {
    this.checkShop(inputs);
    this.rules = [];
    for (const f of inputs) this.add(f);
    return this.list();
  }

  /** Remove every fault; how many there were. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    return n;
  }

  /** Remove one fault (404 fault_not_found). */
  remove(id: string): number {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    if (this.rules.length === before)
      throw new ApiError('fault_not_found', `no fault ${echo(id)}; see the faults in force with GET /sandbox/faults`);
    return 1;
  }

  /** Sandbox reset: forget every fault and event, release held requests, apply the fixtures' faults again (flt_1 …). */
  reset(): void {
    this.rules = [];
    this.next = 1;
    this.history.clear();
    for (const done of [...this.waiting]) done();
    for (const f of this.fixtures) this.add(f, 'fixtures');
  }

  /** Run the handler of `row` for `call` under the faults in force (the guard calls it after authentication). */
  around(row: EndpointRow, call: Call, run: () => unknown): unknown {
    // No fault in force (the usual case): the handler's own result, without another layer of promises.
    if (this.rules.length === 0) return run();
    const endpoint = gatewayEndpoint(row.id);
    if (!endpoint) return run();
    return this.underFaults(endpoint, call, run);
  }

  private async underFaults(endpoint: EndpointId, call: Call, run: () => unknown): Promise<unknown> {
    const slow: FaultRule[] = [];
    let answer: FaultRule | undefined;
    for (const r of this.rules) {
      if (!matches(r, endpoint, call.shopId)) continue;
      if (r.kind === 'latency' && fires(r)) slow.push(r);
      else if (r.kind === 'status' && !answer && fires(r)) answer = r;
    }
    if (slow.length > 0) await this.hold(slow.reduce((ms, r) => ms + r.latencyMs!, 0));
    if (answer) {
      const ref = call.shopId ? await peekOperationRef(call.event) : undefined;
      const op = ref ? this.service.find(call.shopId, ref) : undefined;
      if (op) for (const r of [...slow, answer]) this.record(op.id, r);
      const c = answer.answer!;
      throw new ApiError(c.code as ErrorCode, c.message, {
        'x-paygate-fault': answer.id,
        ...(c.retryAfter ? { 'retry-after': String(c.retryAfter) } : {}),
      });
    }
    let result = await run();
    const opId = answeredOperationId(result);
    if (opId) for (const r of slow) this.record(opId, r);
    if (result instanceof Response && result.status >= 400) return result;
    result = this.drifted(endpoint, call.shopId, result, opId);
    if (result instanceof Response && result.status >= 400) return result;
    const drop = this.rules.find((r) => r.kind === 'drop' && matches(r, endpoint, call.shopId) && fires(r));
    if (!drop) return result;
    if (opId) this.record(opId, drop);
    return dropConnection(call.event, drop.id);
  }

  /**
   * A successful answer under the drift faults that match it and would change it, in order (one that answers an
   * undeclared status ends the list). A drift that would change nothing neither counts nor fires.
   */
  private drifted(endpoint: EndpointId, shopId: string, result: unknown, opId: string | undefined): unknown {
    for (const r of this.rules) {
      if (r.kind !== 'drift' || !matches(r, endpoint, shopId) || !driftApplies(r.drift!, result) || !fires(r)) continue;
      if (opId) this.record(opId, r);
      result = applyDrift(r.drift!, result, r.id);
      if (result instanceof Response) break;
    }
    return result;
  }

  /** The faults injected into requests on this operation, oldest first. */
  historyOf(operationId: string): FaultEvent[] {
    return this.history.of(operationId);
  }

  private record(operationId: string, r: FaultRule): void {
    this.history.add(operationId, {
      at: iso(this.service.clock.now()),
      fault_id: r.id,
      endpoint: r.endpoint,
      kind: r.kind,
      ...(r.answer ? { status: r.answer.status, code: r.answer.code } : {}),
      ...(r.latencyMs !== undefined ? { latency_ms: r.latencyMs } : {}),
      ...(r.drift ? { drift: r.drift.kind } : {}),
    });
  }

  /** Wait `ms` of sandbox time (on a frozen clock: until it is advanced that far). */
  private hold(ms: number): Promise<void> {
    const clock = this.service.clock;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.waiting.delete(done);
        resolve();
      };
      this.waiting.add(done);
      clock.schedule(clock.now() + ms, done);
    });
  }

  private checkShop(inputs: readonly ParsedFault[]): void {
    for (const f of inputs) {
      if (f.shop_id !== undefined && !this.service.world.shops.has(f.shop_id)) {
        const known = [...this.service.world.shops.keys()].join(', ');
        throw new ApiError('shop_not_found', `no shop ${echo(f.shop_id)}; the shops are ${known}`);
      }
    }
  }
}
