// The promise every API method returns: awaits to the parsed body, and `.withResponse()` also gives
// the HTTP details and, for creates, the merchant_operation_id that was sent.

/** HTTP details of the final attempt. */
export interface ResponseInfo {
  status: number;
  /** Response headers, lower-cased names. */
  headers: Record<string, string>;
  /** The body exactly as received (parsed JSON; fields unknown to the contract are kept here). */
  body: unknown;
  /** The `x-request-id` response header, when present. */
  requestId: string | undefined;
  /** How many attempts were made (1 = no retry). */
  attempts: number;
}

export interface WithResponse<T> {
  /** The body parsed by the contract's response schema. */
  data: T;
  response: ResponseInfo;
}

/** What `.withResponse()` gives on create methods: the idempotency key that was sent, generated or not. */
export interface WithMerchantOperationId<T> extends WithResponse<T> {
  merchant_operation_id: string;
}

/**
 * A Promise of `T` with one extra method. The request starts when the method is called, not when awaited.
 *
 * ```ts
 * const op = await client.payments.create(params);
 * const { data, merchant_operation_id, response } = await client.payments.create(params).withResponse();
 * ```
 */
export class APIPromise<T, R extends WithResponse<T> = WithResponse<T>> implements Promise<T> {
  readonly #result: Promise<R>;
  #data: Promise<T> | undefined;

  constructor(result: Promise<R>) {
    this.#result = result;
  }

  /** Resolve to the parsed body together with the HTTP details (and the merchant_operation_id on creates). */
  withResponse(): Promise<R> {
    return this.#result;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#result.then((r) => r.data);
    return this.#data;
  }

  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parsed().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }

  readonly [Symbol.toStringTag] = 'APIPromise';
}
