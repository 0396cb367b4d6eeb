// Non-2xx answers become the right error class, with code, message, headers and Retry-After; JSON or not. On both
// transports: a scripted gateway over HTTP on 127.0.0.1:0 and the same script in-process.
import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  IdempotencyConflictError,
  InternalServerError,
  NotFoundError,
  PaygateError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitError,
  ServiceUnavailableError,
  parseRetryAfter,
} from '../../src/client/index.js';
import { CREATE, type Reply } from './helpers.js';
import { describeTransports } from '../helpers/transport.js';
import { useScripted } from '../helpers/scripted.js';

describeTransports('errors on the wire', (transport) => {
  const scripted = useScripted(transport);

  async function errorFor(reply: Reply, maxRetries = 0): Promise<unknown> {
    const { t } = await scripted.start(() => reply, { maxRetries });
    return t.client.payments.create(CREATE).then(
      () => {
        throw new Error('expected a rejection');
      },
      (e: unknown) => e,
    );
  }

  describe('status → class', () => {
    const cases: [number, string, new (...a: never[]) => APIError][] = [
      [400, 'validation_error', BadRequestError],
      [401, 'invalid_api_key', AuthenticationError],
      [403, 'forbidden', PermissionDeniedError],
      [404, 'operation_not_found', NotFoundError],
      [409, 'invalid_state', ConflictError],
      [412, 'no_route', PreconditionFailedError],
      [412, 'idempotency_conflict', IdempotencyConflictError],
      [429, 'rate_limited', RateLimitError],
      [500, 'internal_error', InternalServerError],
      [503, 'unavailable', ServiceUnavailableError],
      [418, 'teapot', APIError],
    ];
    for (const [status, code, cls] of cases) {
      it(`${status} ${code} → ${cls.name}`, async () => {
        const err = await errorFor({
          status,
          body: { code, message: `msg for ${code}` },
          headers: { 'x-request-id': 'req-1' },
        });
        expect(err).toBeInstanceOf(cls);
        expect(err).toBeInstanceOf(APIError);
        expect(err).toBeInstanceOf(PaygateError);
        const e = err as APIError;
        expect(e.status).toBe(status);
        expect(e.code).toBe(code);
        expect(e.detail).toBe(`msg for ${code}`);
        expect(e.message).toBe(`${status} ${code}: msg for ${code}`);
        expect(e.name).toBe(cls.name);
        expect(e.endpoint).toBe('POST /v1/payment');
        expect(e.requestId).toBe('req-1');
        expect(e.body).toEqual({ code, message: `msg for ${code}` });
        expect(e.merchantOperationId).toMatch(/^[0-9a-f-]{36}$/);
      });
    }

    it('IdempotencyConflictError is also a PreconditionFailedError', async () => {
      const err = await errorFor({ status: 412, body: { code: 'idempotency_conflict', message: 'reused' } });
      expect(err).toBeInstanceOf(PreconditionFailedError);
    });

    it('a 412 with another code is not an IdempotencyConflictError', async () => {
      const err = await errorFor({ status: 412, body: { code: 'not_pool_only', message: 'x' } });
      expect(err).not.toBeInstanceOf(IdempotencyConflictError);
    });
  });

  describe('bodies that are not { code, message }', () => {
    it('a non-JSON body still yields the class, with the text as message', async () => {
      const err = (await errorFor({
        status: 502,
        raw: '<html><body>Bad Gateway</body></html>',
        headers: { 'content-type': 'text/html' },
      })) as APIError;
      expect(err).toBeInstanceOf(APIError);
      expect(err.code).toBe('bad_gateway');
      expect(err.message).toBe('502 bad_gateway: <html><body>Bad Gateway</body></html>');
      expect(err.body).toBe('<html><body>Bad Gateway</body></html>');
    });

    it('an empty body gets the status text', async () => {
      const err = (await errorFor({ status: 401 })) as APIError;
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err.message).toBe('401 unauthorized: unauthorized');
      expect(err.body).toBeUndefined();
    });

    it('JSON without code keeps the status-derived code', async () => {
      const err = (await errorFor({ status: 404, body: { error: 'nope' } })) as APIError;
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.code).toBe('not_found');
      expect(err.detail).toBe('nope');
    });

    it('a long text body is cut', async () => {
      const err = (await errorFor({ status: 500, raw: 'x'.repeat(1000) })) as APIError;
      expect(err.detail.length).toBeLessThan(210);
    });
  });

  describe('Retry-After', () => {
    it('is exposed in seconds on the error', async () => {
      const err = (await errorFor({
        status: 429,
        body: { code: 'rate_limited', message: 'slow down' },
        headers: { 'retry-after': '3' },
      })) as RateLimitError;
      expect(err.retryAfter).toBe(3);
    });
  });
});

describe('parseRetryAfter', () => {
  it('parses seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2);
    expect(parseRetryAfter('0.5', now)).toBe(0.5);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
