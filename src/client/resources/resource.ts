// The client's resources are derived from the contract's endpoint tables: a resource is a table keyed by endpoint id
// (`'keys.revoke'`), each row saying only how the method's arguments become the request (path parameters, query,
// body, and what to say when the outcome is unknown). Everything else comes from the id: the method's name (the
// id's action in camelCase, as operationIdOf words it: `webhooks.rotate_secret` → `rotateSecret`, unless the row
// names it), its result (`ResponseOf<id>`: the endpoint's response schema), the trailing `options` argument, the
// APIPromise, and — at send time, through the core — the method, path and credential of the contract's row.
import { APIPromise, type WithMerchantOperationId } from '../api-promise.js';
import type { AnyEndpointId, PaygateCore, RequestInput, RequestOptions, ResponseOf } from '../core.js';
import { createCall } from './create-call.js';

/** The id's action in camelCase: `keys.list` → `list`, `pool.update_settings` → `updateSettings`. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type ActionOf<E> = E extends `${string}.${infer A}` ? Camel<A> : never;

/** The runtime twin of ActionOf. */
export function actionOf(id: string): string {
  const words = id.slice(id.indexOf('.') + 1).split('_');
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

/**
 * One method of a resource. `A`: its arguments before `options`; `arity`: how many there are (checked against `A`);
 * `create`: a create call, whose idempotency key is generated when omitted and handed back.
 */
export interface Row<
  A extends unknown[] = never,
  N extends string | undefined = string | undefined,
  C extends boolean = boolean,
> {
  readonly name: N;
  readonly arity: number;
  readonly input: (...args: A) => RequestInput;
  readonly create: C;
}

type CreateBody = { merchant_operation_id?: string | undefined };
type Input<A extends unknown[]> = (...args: A) => RequestInput;

/**
 * A plain call: `call(1, (id: string) => ({ params: { id } }))`. `arity` is the number of arguments before
 * `options` (optional ones included); the input may throw PaygateError, which the method returns as a rejection.
 */
export function call(arity: 0): Row<[], undefined, false>;
export function call<A extends unknown[]>(arity: Required<A>['length'], input: Input<A>): Row<A, undefined, false>;
export function call<A extends unknown[]>(arity: number, input?: Input<A>): Row<A, undefined, false> {
  return { name: undefined, arity, input: input ?? (() => ({})), create: false };
}

/** A call whose method is not named after the id's action (`clock.show` → `get`). */
export function named<const N extends string, A extends unknown[], C extends boolean>(
  name: N,
  row: Row<A, undefined, C>,
): Row<A, N, C> {
  return { ...row, name };
}

/** A create call (spec §4.1–4.4): the body is the first argument; `merchant_operation_id` is generated when omitted. */
export function create<P extends CreateBody>(): Row<[params: P], undefined, true> {
  return { name: undefined, arity: 1, input: (params: P) => ({ body: params }), create: true };
}

type Table = { readonly [id in AnyEndpointId]?: Row<never> };
type ArgsOf<R> = R extends Row<infer A> ? A : never;
type NameOf<E, R> = R extends { name: infer N extends string } ? N : ActionOf<E>;
type ResultOf<E, R> = E extends AnyEndpointId
  ? R extends { create: true }
    ? APIPromise<ResponseOf<E>, WithMerchantOperationId<ResponseOf<E>>>
    : APIPromise<ResponseOf<E>>
  : never;

/** The methods of a table: one per row, named after its id, taking the row's arguments then `options`. */
export type Methods<T extends Table> = {
  [E in keyof T as NameOf<E, T[E]>]: (...args: [...ArgsOf<T[E]>, options?: RequestOptions]) => ResultOf<E, T[E]>;
};

let coreOf: (r: Resource) => PaygateCore;

/** What every resource holds: the client's core. Its own methods reach it with `coreOf(this)`. */
export class Resource {
  readonly #core: PaygateCore;

  constructor(core: PaygateCore) {
    this.#core = core;
  }

  static {
    coreOf = (r) => r.#core;
  }
}

export { coreOf };

const tables = new WeakMap<object, Table>();

/** The table `resource` derived the methods of `r` from (for tests and tools; empty for a hand-written resource). */
export function tableOf(r: object): Readonly<Record<string, Row<never>>> {
  for (let p = Object.getPrototypeOf(r); p; p = Object.getPrototypeOf(p)) {
    const table = tables.get(p.constructor);
    if (table) return table as Record<string, Row<never>>;
  }
  return {};
}

/** The class of a resource whose methods are derived from `table`; extend it to add methods of its own. */
export function resource<const T extends Table>(table: T): new (core: PaygateCore) => Resource & Methods<T> {
  class Derived extends Resource {}
  tables.set(Derived, table);
  for (const [id, row] of Object.entries(table) as [AnyEndpointId, Row<unknown[]>][]) {
    const method = function (this: Resource, ...args: unknown[]) {
      return send(coreOf(this), id, row, args.slice(0, row.arity), args[row.arity] as RequestOptions | undefined);
    };
    Object.defineProperty(method, 'name', { value: row.name ?? actionOf(id) });
    Object.defineProperty(Derived.prototype, row.name ?? actionOf(id), {
      value: method,
      writable: true,
      configurable: true,
    });
  }
  return Derived as unknown as new (core: PaygateCore) => Resource & Methods<T>;
}

function send(
  core: PaygateCore,
  id: AnyEndpointId,
  row: Row<unknown[]>,
  args: unknown[],
  options: RequestOptions | undefined,
): APIPromise<unknown> {
  if (!row.create) return requestWith(core, id, () => row.input(...args), options);
  try {
    return createCall(core, id, row.input(...args).body as CreateBody, options);
  } catch (err) {
    return new APIPromise(Promise.reject(err));
  }
}

/** `core.request(id, input(), options)`, where an input that throws (a PaygateError: bad arguments) is a rejection. */
export function requestWith<E extends AnyEndpointId>(
  core: PaygateCore,
  id: E,
  input: () => RequestInput,
  options: RequestOptions | undefined,
): APIPromise<ResponseOf<E>> {
  let built: RequestInput;
  try {
    built = input();
  } catch (err) {
    return new APIPromise(Promise.reject(err));
  }
  return core.request(id, built, options);
}
