// The client's error hierarchy: one class per HTTP status (and per error code where it matters),
// transport failures, contract drift, and the "cancel outcome unknown" case of spec §4.7 rule 4.
import type { z } from 'zod';

/** Base of every error the client throws. */
export class PaygateError extends Error {
  /**
   * The merchant_operation_id that was sent, on errors thrown by a create call. When the outcome is unknown
   * (timeout, connection error), retry with this same id or read the state by it.
   */
  merchantOperationId?: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Everything known about an HTTP error response. */
export interface APIErrorInit {
  status: number;
  /** `METHOD /path` of the endpoint that answered. */
  endpoint: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when the body is not JSON, or undefined when empty. */
  body: unknown;
}

/** The gateway answered with a non-2xx status. `code` is the body's snake_case code (or derived from the status). */
export class APIError extends PaygateError {
  readonly status: number;
  readonly code: string;
  /** The server's own message (the `message` of the `{ code, message }` body), without the status prefix. */
  readonly detail: string;
  readonly endpoint: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  /** The `x-request-id` response header, when the server sent one. */
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying, from the `Retry-After` header (seconds or HTTP date), when present. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit) {
    const { code, detail } = describeErrorBody(init.status, init.body);
    super(`${init.status} ${code}: ${detail}`);
    this.status = init.status;
    this.code = code;
    this.detail = detail;
    this.endpoint = init.endpoint;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = init.headers['x-request-id'];
    this.retryAfter = parseRetryAfter(init.headers['retry-after']);
  }

  /** Build the subclass that matches the status (and, for 412, the body code). */
  static from(init: APIErrorInit): APIError {
    const { code } = describeErrorBody(init.status, init.body);
    switch (init.status) {
      case 400:
        return new BadRequestError(init);
      case 401:
        return new AuthenticationError(init);
      case 403:
        return new PermissionDeniedError(init);
      case 404:
        return new NotFoundError(init);
      case 409:
        return new ConflictError(init);
      case 412:
        return code === 'idempotency_conflict' ? new IdempotencyConflictError(init) : new PreconditionFailedError(init);
      case 429:
        return new RateLimitError(init);
      case 500:
        return new InternalServerError(init);
      case 503:
        return new ServiceUnavailableError(init);
      default:
        return new APIError(init);
    }
  }
}

export class BadRequestError extends APIError {}
export class AuthenticationError extends APIError {}
export class PermissionDeniedError extends APIError {}
export class NotFoundError extends APIError {}
/** 409: the operation is not in a state that accepts the request (e.g. a receipt upload). */
export class ConflictError extends APIError {}
export class PreconditionFailedError extends APIError {}
/** 412 with code `idempotency_conflict`: the merchant_operation_id was already used with a different body. */
export class IdempotencyConflictError extends PreconditionFailedError {}
export class RateLimitError extends APIError {}
export class InternalServerError extends APIError {}
export class ServiceUnavailableError extends APIError {}

/** No HTTP response was received (refused, reset, DNS, ...). The request may or may not have been processed. */
export class APIConnectionError extends PaygateError {}

/** The per-attempt timeout elapsed before the response was complete. */
export class APITimeoutError extends APIConnectionError {}

/** The caller's AbortSignal fired. Never retried. */
export class APIUserAbortError extends PaygateError {}

/** A 2xx response whose body does not match the contract's response schema. */
export class ContractMismatchError extends PaygateError {
  /** `METHOD /path` of the endpoint. */
  readonly endpoint: string;
  readonly status: number;
  readonly issues: readonly z.core.$ZodIssue[];
  /** The body as received: parsed JSON, or the raw text when it is not JSON. */
  readonly body: unknown;

  constructor(init: {
    message: string;
    endpoint: string;
    status: number;
    issues: readonly z.core.$ZodIssue[];
    body: unknown;
  }) {
    super(init.message);
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.issues = init.issues;
    this.body = init.body;
  }
}

/**
 * A cancel ended in a timeout, a connection error or a 503 (after retries): no decision may be assumed
 * (spec §4.7 rule 4). The cancellation may or may not have been recorded.
 */
export class CancelOutcomeUnknownError extends PaygateError {
  /** The identifier the cancel was sent with. */
  readonly target: { operation_id: string } | { merchant_operation_id: string };

  constructor(target: { operation_id: string } | { merchant_operation_id: string }, cause: PaygateError) {
    const ref =
      'operation_id' in target
        ? `operation_id ${target.operation_id}`
        : `merchant_operation_id ${target.merchant_operation_id}`;
    super(
      `cancel outcome unknown for ${ref} (${cause.message}): the cancellation may or may not have been recorded; ` +
        'retry the same cancel command (it is idempotent) or read the operation state',
      { cause },
    );
    this.target = target;
  }
}

function describeErrorBody(status: number, body: unknown): { code: string; detail: string } {
  if (body !== null && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const code = typeof b.code === 'string' && b.code ? b.code : statusCode(status);
    const detail =
      typeof b.message === 'string' && b.message
        ? b.message
        : typeof b.error === 'string'
          ? b.error
          : statusText(status);
    return { code, detail };
  }
  if (typeof body === 'string' && body.trim()) {
    const text = body.trim().replace(/\s+/g, ' ');
    return { code: statusCode(status), detail: text.length > 200 ? `${text.slice(0, 200)}…` : text };
  }
  return { code: statusCode(status), detail: statusText(status) };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  409: 'conflict',
  412: 'precondition failed',
  413: 'payload too large',
  415: 'unsupported media type',
  429: 'too many requests',
  500: 'internal server error',
  501: 'not implemented',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `HTTP ${status}`;
}

function statusCode(status: number): string {
  return STATUS_TEXT[status]?.replace(/ /g, '_') ?? `http_${status}`;
}

/** Parse a `Retry-After` header: delta-seconds or an HTTP date. Returns seconds (never negative) or undefined. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, (at - now) / 1000);
}
