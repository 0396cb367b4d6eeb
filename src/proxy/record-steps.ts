// The recording's steps, built from the exchanges that passed through the proxy, in order: one `call` step per
// exchange (its endpoint id, the request with personal data replaced, merchant_operation_ids as unique variables,
// operation ids as references to the step that first answered them, `expect` from what came back). A status an
// operation reached between two exchanges by itself becomes the sandbox control that produces it (control-steps.ts);
// an exchange the sandbox cannot reproduce becomes a step marked `skip:` with the reason.
import type { Exchange } from '../conformance/types.js';
import { endpoints } from '../contract/endpoints.js';
import { controlStep, type TrackedOperation } from './control-steps.js';
import type { FormParts } from './multipart.js';
import { PersonalData } from './record-personal.js';
import type { Move } from './record-webhooks.js';

export interface Recorded {
  exchange: Exchange;
  /** The parsed multipart body of an upload; undefined when there was none or it was not kept whole. */
  form?: FormParts | undefined;
}

/** A key the recording maps to a shop of the sandbox, or to an unknown key (every answer it got was 401). */
export interface KeyMapping {
  credential: string;
  shop: string | undefined;
  why: string;
}

export type Step = Record<string, unknown>;

export interface Recording {
  steps: Step[];
  variables: Record<string, string>;
  keys: KeyMapping[];
  /** Uploaded files to write beside the recording: their path relative to it, and their bytes. */
  files: { path: string; bytes: Buffer }[];
  skipped: number;
}

/** A key no sandbox knows: what a recorded 401 for a bad key replays with. */
export const UNKNOWN_KEY = 'pg_test_recorded_unknown_key';

const OPERATION_STATUSES = new Set([
  'pending',
  'awaiting_confirmation',
  'manual_check',
  'completed',
  'cancelled',
  'rejected',
]);
/** A gateway endpoint as the recorder needs it: its id, method, path, and whether it takes an upload. */
interface Callable {
  id: string;
  method: string;
  path: string;
  multipart: boolean;
}
const GATEWAY: readonly Callable[] = Object.values(endpoints).map((row) => ({
  id: row.id,
  method: row.method,
  path: row.path,
  multipart: 'multipart' in row && row.multipart !== undefined,
}));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The operation an answer carries: the body itself, or its `operation` (a cancel's answer). */
function operationOf(body: unknown): { operation_id: string; status?: unknown; [k: string]: unknown } | undefined {
  const op = isObject(body) && isObject(body.operation) ? body.operation : body;
  return isObject(op) && typeof op.operation_id === 'string' ? (op as { operation_id: string }) : undefined;
}

/** The gateway endpoint an exchange called, by method and path. */
function endpointOf(x: Exchange): Callable | undefined {
  return GATEWAY.find((c) => c.method === x.request.method && c.path === x.request.path);
}

/**
 * Each credential seen: to the shop the upstream named for it (a paygate says whose an operation is), else the
 * sandbox's shops not named in order; one that only ever got 401, to no shop.
 */
export function mapKeys(
  items: readonly Recorded[],
  shops: readonly string[],
  named: ReadonlyMap<string, string> = new Map(),
): KeyMapping[] {
  const order: string[] = [];
  const only401 = new Map<string, boolean>();
  for (const { exchange: x } of items) {
    if (!x.credential) continue;
    if (!only401.has(x.credential)) order.push(x.credential);
    only401.set(x.credential, (only401.get(x.credential) ?? true) && x.response.status === 401);
  }
  const taken = new Set([...named.values()].filter((s) => shops.includes(s)));
  const free = shops.filter((s) => !taken.has(s));
  let next = 0;
  return order.map((credential) => {
    if (only401.get(credential))
      return { credential, shop: undefined, why: 'every answer it got was 401: replayed with an unknown key' };
    const own = named.get(credential);
    if (own !== undefined && taken.has(own))
      return { credential, shop: own, why: 'the shop the upstream (a paygate) named' };
    const shop = free[next++];
    return shop
      ? {
          credential,
          shop,
          why: `the ${ordinal(next)} key seen → the ${ordinal(next)} shop of the default fixtures left`,
        }
      : {
          credential,
          shop: undefined,
          why: `more keys than the ${shops.length} shops of the fixtures: its steps are skipped`,
        };
  });
}

const ordinal = (n: number) => (['first', 'second', 'third'][n - 1] ?? `${n}th`) as string;

export class RecordingBuilder {
  readonly steps: Step[] = [];
  readonly variables: Record<string, string> = {};
  readonly files: { path: string; bytes: Buffer }[] = [];
  skipped = 0;
  /** Each step that makes an operation enter a status, in order (what the replay's webhooks come from). */
  readonly moves: Move[] = [];
  readonly #personal = new PersonalData();
  readonly #moids = new Map<string, string>();
  readonly #ops = new Map<string, TrackedOperation>();
  readonly #keys: Map<string, KeyMapping>;

  constructor(
    keys: readonly KeyMapping[],
    /** The default shop of the recording (steps of other shops say `as:`). */
    private readonly firstShop: string | undefined,
    /** Where uploaded files go, relative to the recording. */
    private readonly filesDir: string,
  ) {
    this.#keys = new Map(keys.map((k) => [k.credential, k]));
  }

  add(item: Recorded): void {
    const x = item.exchange;
    const name = `#${x.seq} ${x.request.method} ${x.request.path} → ${x.response.status}`;
    const ep = endpointOf(x);
    if (!ep) return this.#skipOnly(name, `${x.request.method} ${x.request.path}: no endpoint of the contract`);
    const step: Step = { name, call: ep.id };
    const fields = this.#fields(x, ep, item.form);
    const who = this.#who(x);
    let skip = typeof fields === 'string' ? fields : who.skip;
    if (typeof fields !== 'string' && Object.keys(fields.with).length > 0) step.with = fields.with;
    Object.assign(step, who.step);
    skip ??= this.#unreproducible(x, typeof fields === 'string' ? [] : fields.operations);
    skip ??= this.#statusMoves(x, ep);
    step.expect = expectOf(x);
    if (skip) {
      step.skip = skip;
      this.skipped++;
    } else this.#learn(x, ep, who.shop, step);
    this.steps.push(step);
  }

  #skipOnly(name: string, reason: string): void {
    this.steps.push({ name, skip: reason });
    this.skipped++;
  }

  /** `as:` or `key:` for the exchange's credential, or why it cannot be replayed. */
  #who(x: Exchange): { step: Step; shop: string | undefined; skip?: string } {
    if (!x.credential) return { step: { key: null }, shop: undefined };
    const k = this.#keys.get(x.credential)!;
    if (k.shop === undefined && k.why.startsWith('every')) return { step: { key: UNKNOWN_KEY }, shop: undefined };
    if (k.shop === undefined) return { step: {}, shop: undefined, skip: `the key ${x.credential}: ${k.why}` };
    return { step: k.shop === this.firstShop ? {} : { as: k.shop }, shop: k.shop };
  }

  /** The step's `with:` and the operation ids it names, or why the request cannot be written as one. */
  #fields(x: Exchange, ep: Callable, form: FormParts | undefined): { with: Step; operations: string[] } | string {
    let raw: Record<string, unknown>;
    if (ep.multipart) {
      if (!form) return 'the upload was not kept whole (larger than the proxy keeps, or not multipart)';
      raw = { ...form.fields };
      if (form.file) raw[form.file.field] = this.#file(x.seq, form.file);
    } else if (ep.method === 'GET') raw = { ...x.request.query };
    else if (x.request.body === undefined && x.request.bodyText === undefined) raw = {};
    else if (isObject(x.request.body)) raw = x.request.body;
    else return 'the request body was not a JSON object, which a scenario step cannot send';
    const operations: string[] = [];
    const out: Step = {};
    for (const [name, value] of Object.entries(raw)) {
      if (name === 'merchant_operation_id' && typeof value === 'string') out[name] = this.#moid(value);
      else if (typeof value === 'string' && (name === 'operation_id' || this.#ops.has(value))) {
        operations.push(value);
        out[name] = this.#ops.get(value)?.ref ?? value;
      } else out[name] = value;
    }
    return { with: this.#personal.replace(out), operations };
  }

  #file(seq: number, file: NonNullable<FormParts['file']>): Step {
    const ext = /pdf/i.test(file.contentType)
      ? 'pdf'
      : (/\/(png|jpe?g|gif|webp)$/i.exec(file.contentType)?.[1] ?? 'bin');
    const path = `${this.filesDir}/upload-${seq}.${ext}`;
    this.files.push({ path, bytes: file.bytes });
    return { file: path, content_type: file.contentType, filename: `receipt.${ext}` };
  }

  #moid(value: string): string {
    let name = this.#moids.get(value);
    if (name === undefined) {
      name = `order_${this.#moids.size + 1}`;
      this.#moids.set(value, name);
      this.variables[name] = `\${{ unique.${name} }}`;
    }
    return `\${{ vars.${name} }}`;
  }

  /** Why the sandbox cannot answer this exchange as the upstream did, if it cannot. */
  #unreproducible(x: Exchange, operations: readonly string[]): string | undefined {
    for (const id of operations) {
      const op = this.#ops.get(id);
      if (!op && x.response.status < 400) return `operation ${id} was not created through the proxy`;
      if (op?.diverged) return op.diverged;
    }
    const body = x.response.body;
    const answered =
      isObject(body) && typeof body.operation_id === 'string' ? this.#ops.get(body.operation_id) : undefined;
    if (answered?.diverged) return answered.diverged;
    if (x.response.status >= 500) {
      const code = isObject(body) && typeof body.code === 'string' ? ` ${body.code}` : '';
      return `the upstream answered ${x.response.status}${code}, which the sandbox answers only under an injected fault`;
    }
    return undefined;
  }

  /**
   * An operation the answer shows in another status than last seen, not by this request's doing: the control that
   * produces the move is inserted before the step; a move no control produces makes the operation diverge.
   */
  #statusMoves(x: Exchange, ep: Callable): string | undefined {
    const body = operationOf(x.response.body);
    if (!body || !OPERATION_STATUSES.has(String(body.status))) return undefined;
    const op = this.#ops.get(body.operation_id);
    const status = String(body.status);
    if (!op || op.status === status) return undefined;
    const ownDoing = ep.id === 'payment.confirm' || (ep.id === 'operation.cancel' && status === 'cancelled');
    if (ownDoing) return undefined;
    const control = controlStep(op, status, body, x.seq);
    if (control) {
      if (op.shop !== this.firstShop && op.shop !== undefined) control.as = op.shop;
      this.steps.push(control);
      op.status = status;
      this.moves.push({ operation: op.id, status, step: control });
      return undefined;
    }
    op.diverged = `the operation of step ${op.step} went from ${op.status} to ${status} (seen at #${x.seq}) by something the proxy did not see`;
    return op.diverged;
  }

  /** What a replayed step's answer tells later steps: a new operation's reference, an operation's status. */
  #learn(x: Exchange, ep: Callable, shop: string | undefined, step: Step): void {
    const body = operationOf(x.response.body);
    if (!body) return;
    const status = String(body.status);
    const known = this.#ops.get(body.operation_id);
    if (known) {
      if (OPERATION_STATUSES.has(status) && known.status !== status) {
        known.status = status;
        this.moves.push({ operation: known.id, status, step });
      }
      return;
    }
    const id = `s${x.seq}`;
    const rest = { ...step };
    for (const k of Object.keys(step)) delete step[k];
    Object.assign(step, { id, ...rest });
    const kind = ep.id === 'payout.create' ? 'payout' : 'payment';
    this.#ops.set(body.operation_id, {
      id: body.operation_id,
      step: id,
      ref: `\${{ steps.${id}.operation_id }}`,
      kind,
      status,
      shop,
    });
    if (OPERATION_STATUSES.has(status)) this.moves.push({ operation: body.operation_id, status, step });
  }

  /** The upstream ids of the operations the recorded steps answered. */
  get operations(): ReadonlySet<string> {
    return new Set(this.#ops.keys());
  }
}

/** What the step must get back: the status, an error's code, an operation's status. */
function expectOf(x: Exchange): Step {
  const e: Step = { status: x.response.status };
  const body = x.response.body;
  if (!isObject(body)) return e;
  if (x.response.status >= 400 && typeof body.code === 'string') e.code = body.code;
  if (x.response.status >= 300) return e;
  if (OPERATION_STATUSES.has(String(body.status))) e.body = { status: body.status };
  else if (typeof body.outcome === 'string') e.body = { outcome: body.outcome };
  return e;
}
