// Drift faults at run time (src/contract/fault-drift.ts): a successful answer changed on its way out — a field
// removed, renamed or changed, an operation's status shown out of order — or sent with a status the contract does
// not declare. The handler ran and its writes stand; only what the caller reads differs.
import type { DriftKind } from '../../contract/fault-drift.js';

export interface DriftSpec {
  readonly kind: DriftKind;
  readonly field?: string | undefined;
  readonly to?: string | undefined;
  readonly value?: unknown;
  readonly status?: number | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

/** Every (parent, key) the dotted path names in `root` (`*` walks every item of an array or object). */
function targets(root: unknown, path: string): [Obj, string][] {
  const parts = path.split('.');
  let parents: unknown[] = [root];
  for (const part of parts.slice(0, -1)) {
    parents = parents.flatMap((p) => (!isObj(p) ? [] : part === '*' ? Object.values(p) : [p[part]]));
  }
  const last = parts.at(-1)!;
  return parents.flatMap((p): [Obj, string][] =>
    !isObj(p) ? [] : last === '*' ? Object.keys(p).map((k): [Obj, string] => [p, k]) : [[p, last]],
  );
}

/** The operation object an answer is or carries (a cancel's `{ outcome, operation }`). */
function operationIn(answer: unknown): Obj | undefined {
  if (!isObj(answer)) return undefined;
  if (typeof answer.status === 'string' && typeof answer.operation_id === 'string') return answer;
  return isObj(answer.operation) && typeof answer.operation.status === 'string' ? answer.operation : undefined;
}

/** The status an out_of_order drift shows: the one asked for, else the first an operation of its kind has. */
const earlierStatus = (d: DriftSpec, op: Obj): unknown =>
  d.value ?? (op.external_confirmation !== undefined && op.type === 'payment' ? 'awaiting_confirmation' : 'pending');

/** Whether the drift changes this answer at all (a drift that would change nothing neither fires nor counts). */
export function driftApplies(d: DriftSpec, answer: unknown): boolean {
  switch (d.kind) {
    case 'extra_status':
      return true;
    case 'out_of_order': {
      const op = operationIn(answer);
      return op !== undefined && op.status !== earlierStatus(d, op);
    }
    case 'change_field':
      return targets(answer, d.field!).length > 0;
    default:
      return targets(answer, d.field!).some(([p, k]) => Object.hasOwn(p, k));
  }
}

/** The answer with the drift applied: a changed copy, or (extra_status) a Response with the undeclared status. */
export function applyDrift(d: DriftSpec, answer: unknown, faultId: string): unknown {
  if (d.kind === 'extra_status') {
    const headers = { 'x-paygate-fault': faultId };
    if (answer instanceof Response) return new Response(answer.body, { status: d.status!, headers: answer.headers });
    return answer === undefined
      ? new Response(null, { status: d.status!, headers })
      : Response.json(answer, { status: d.status!, headers });
  }
  const copy = structuredClone(answer);
  if (d.kind === 'out_of_order') {
    const op = operationIn(copy)!;
    op.status = earlierStatus(d, op);
    return copy;
  }
  for (const [parent, key] of targets(copy, d.field!)) {
    if (d.kind === 'change_field') parent[key] = structuredClone(d.value);
    else if (Object.hasOwn(parent, key)) {
      if (d.kind === 'rename_field') parent[d.to!] = parent[key];
      delete parent[key];
    }
  }
  return copy;
}
