// Retries: what is repeated (429/503, transport failures on idempotent calls), how long the client waits,
// what is never repeated (one-shot upload streams, other statuses), and cancel's "outcome unknown". Against a scripted
// gateway on both transports (over HTTP on 127.0.0.1:0, and in-process), plus a refused connection over HTTP.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  BadRequestError,
  CancelOutcomeUnknownError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  RETRY_CLASS,
  backoffMs,
  type ClientOptions,
} from '../../src/client/index.js';
import { isRetryable } from '../../src/client/retry.js';
import { BALANCES, CREATE, OPERATION, OPERATION_STATE, json, type Reply } from './helpers.js';
import { deadPort, describeTransports } from '../helpers/transport.js';
import { useScripted } from '../helpers/scripted.js';

const unavailable: Reply = { status: 503, body: { code: 'unavailable', message: 'busy' } };
const limited = (retryAfter?: string): Reply => ({
  status: 429,
  body: { code: 'rate_limited', message: 'slow down' },
  ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
});

describe('backoff', () => {
  it('is min(0.5·2ⁿ, 8) s times a jitter in (0.75, 1]', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffMs(0, () => 0.999999)).toBeCloseTo(375, 0);
    for (let i = 0; i < 100; i++) {
      const ms = backoffMs(2);
      expect(ms).toBeGreaterThan(1500);
      expect(ms).toBeLessThanOrEqual(2000);
    }
  });
});

describe('policy', () => {
  it('every endpoint of the contract has a retry class; confirm_payment is the one upload', () => {
    expect(
      Object.entries(RETRY_CLASS)
        .filter(([, c]) => c === 'upload')
        .map(([id]) => id),
    ).toEqual(['payment.confirm']);
    expect(RETRY_CLASS['operation.cancel']).toBe('cancel');
  });

  it('retries 429, 503 and transport failures; never a one-shot upload', () => {
    for (const klass of ['read', 'create', 'cancel', 'upload'] as const) {
      expect(isRetryable(klass, { kind: 'status', status: 429 }, true)).toBe(true);
      expect(isRetryable(klass, { kind: 'status', status: 503 }, true)).toBe(true);
      expect(isRetryable(klass, { kind: 'timeout' }, true)).toBe(true);
      expect(isRetryable(klass, { kind: 'connection' }, true)).toBe(true);
      for (const status of [400, 401, 404, 409, 412, 500, 501, 502])
        expect(isRetryable(klass, { kind: 'status', status }, true)).toBe(false);
    }
    for (const failure of [{ kind: 'status', status: 503 }, { kind: 'timeout' }, { kind: 'connection' }] as const) {
      expect(isRetryable('upload', failure, false)).toBe(false);
    }
  });
});

describeTransports('retries on the wire', (transport) => {
  const scripted = useScripted(transport);

  function setup(script: (n: number) => Reply, options: Partial<ClientOptions> = {}) {
    return scripted.start((_req, n) => script(n), options);
  }

  describe('429 and 503', () => {
    it('429 with Retry-After then 200: waits the header, resends the same idempotency key', async () => {
      const { server, t } = await setup((n) => (n === 0 ? limited('2') : { status: 200, body: OPERATION }));
      const res = await t.client.payments.create(CREATE).withResponse();
      expect(res.response.attempts).toBe(2);
      expect(t.waits).toEqual([2000]);
      const ids = server.requests.map((r) => (json(r.body) as { merchant_operation_id: string }).merchant_operation_id);
      expect(ids).toHaveLength(2);
      expect(ids[0]).toBe(ids[1]);
      expect(ids[0]).toBe(res.merchant_operation_id);
    });

    it('Retry-After as an HTTP date', async () => {
      const at = new Date(Date.now() + 5000).toUTCString();
      const { t } = await setup((n) =>
        n === 0
          ? { status: 429, body: { code: 'rate_limited', message: 'x' }, headers: { 'retry-after': at } }
          : { status: 200, body: BALANCES },
      );
      await t.client.balances.list();
      expect(t.waits).toHaveLength(1);
      expect(t.waits[0]).toBeGreaterThan(3000);
      expect(t.waits[0]).toBeLessThanOrEqual(5000);
    });

    it('503 without Retry-After backs off 0.5 s then 1 s', async () => {
      const { server, t } = await setup((n) => (n < 2 ? unavailable : { status: 200, body: BALANCES }));
      expect(await t.client.balances.list()).toEqual(BALANCES);
      expect(t.waits).toEqual([500, 1000]);
      expect(server.requests).toHaveLength(3);
    });

    it('gives up after maxRetries and throws the last error', async () => {
      const { server, t } = await setup(() => unavailable);
      await expect(t.client.operations.get({ merchant_operation_id: 'm' })).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      expect(server.requests).toHaveLength(3);
    });

    it('per-call maxRetries overrides the client', async () => {
      const { server, t } = await setup(() => limited('1'));
      await expect(t.client.balances.list({ maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
      expect(server.requests).toHaveLength(1);
      await expect(t.client.balances.list({ maxRetries: 4 })).rejects.toBeInstanceOf(RateLimitError);
      expect(server.requests).toHaveLength(6);
    });

    it('a Retry-After beyond 60 s is not slept through: the error is thrown with retryAfter', async () => {
      const { server, t } = await setup(() => limited('120'));
      const err = await t.client.balances.list().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfter).toBe(120);
      expect(server.requests).toHaveLength(1);
      expect(t.waits).toEqual([]);
    });

    for (const status of [400, 401, 404, 412, 500]) {
      it(`${status} is not retried`, async () => {
        const { server, t } = await setup(() => ({ status, body: { code: 'x', message: 'y' } }));
        await expect(t.client.payments.create(CREATE)).rejects.toHaveProperty('status', status);
        expect(server.requests).toHaveLength(1);
      });
    }
  });

  describe('transport failures', () => {
    it('a dropped connection on a read is retried', async () => {
      const { server, t } = await setup((n) => (n === 0 ? 'destroy' : { status: 200, body: OPERATION_STATE }));
      const res = await t.client.operations.get({ operation_id: OPERATION.operation_id }).withResponse();
      expect(res.response.attempts).toBe(2);
      expect(server.requests).toHaveLength(2);
      expect(t.waits).toEqual([500]);
    });

    it('a dropped connection on a create is retried with the same key', async () => {
      const { server, t } = await setup((n) => (n === 0 ? 'destroy' : { status: 200, body: OPERATION }));
      await t.client.payouts.create(CREATE);
      const [a, b] = server.requests.map((r) => json(r.body));
      expect(a).toEqual(b);
    });

    it('a server that never answers: APITimeoutError per attempt, retried', async () => {
      const { server, t } = await setup(() => 'hang', { timeout: 30, maxRetries: 1 });
      const err = await t.client.operations.get({ merchant_operation_id: 'm' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APITimeoutError);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toMatch(/timed out after 30 ms \(attempt 2 of 2\)/);
      expect(server.requests.length).toBeGreaterThanOrEqual(1); // a short timeout may fire before the 2nd request lands
    });

    it('per-call timeout overrides the client', async () => {
      const { t } = await setup(() => 'hang', { maxRetries: 0 });
      await expect(t.client.balances.list({ timeout: 20 })).rejects.toBeInstanceOf(APITimeoutError);
    });
  });

  describe('abort', () => {
    it('an aborted signal sends nothing', async () => {
      const { server, t } = await setup(() => ({ status: 200, body: BALANCES }));
      const ac = new AbortController();
      ac.abort();
      await expect(t.client.balances.list({ signal: ac.signal })).rejects.toBeInstanceOf(APIUserAbortError);
      expect(server.requests).toHaveLength(0);
    });

    it('aborting an in-flight request is not retried', async () => {
      const ac = new AbortController();
      const { server, t } = await setup(() => {
        queueMicrotask(() => ac.abort());
        return 'hang';
      });
      await expect(t.client.balances.list({ signal: ac.signal })).rejects.toBeInstanceOf(APIUserAbortError);
      expect(server.requests).toHaveLength(1);
    });

    it('aborting during the wait between retries stops there', async () => {
      const ac = new AbortController();
      const { server, t: c } = await setup(() => unavailable, {
        sleep: async () => {
          ac.abort();
          throw new Error('sleep interrupted');
        },
      });
      await expect(c.client.balances.list({ signal: ac.signal })).rejects.toBeInstanceOf(APIUserAbortError);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('confirm_payment uploads', () => {
    const pdf = Buffer.from('%PDF-1.4\n%fake receipt\n%%EOF\n');

    it('bytes are replayed on 503: the same multipart body is sent again', async () => {
      const { server, t } = await setup((n) => (n === 0 ? unavailable : { status: 200, body: OPERATION }));
      await t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: pdf });
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.body.equals(server.requests[1]!.body)).toBe(true);
      expect(server.requests[1]!.body.includes(pdf)).toBe(true);
    });

    it('bytes are replayed after a dropped connection', async () => {
      const { server, t } = await setup((n) => (n === 0 ? 'destroy' : { status: 200, body: OPERATION }));
      await t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: new Blob([pdf]) });
      expect(server.requests).toHaveLength(2);
    });

    it('a one-shot stream is never retried, on 503 or on a dropped connection', async () => {
      const { server, t } = await setup(() => unavailable);
      await expect(
        t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: Readable.from([pdf]) }),
      ).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(server.requests).toHaveLength(1);
      await server.close();
      const { server: dropping, t: c } = await scripted.start(() => 'destroy');
      await expect(
        c.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: Readable.from([pdf]) }),
      ).rejects.toBeInstanceOf(APIConnectionError);
      expect(dropping.requests).toHaveLength(1);
      expect(c.waits).toEqual([]);
    });
  });

  describe('cancel', () => {
    const target = { merchant_operation_id: 'm-1' };

    it('503 after retries is an unknown outcome, never a success', async () => {
      const { server, t } = await setup(() => ({
        status: 503,
        body: { code: 'cancel_not_durable', message: 'not accepted before the deadline' },
      }));
      const err = await t.client.operations.cancel(target).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CancelOutcomeUnknownError);
      const e = err as CancelOutcomeUnknownError;
      expect(e.message).toMatch(/outcome unknown/);
      expect(e.message).toMatch(/retry the same cancel command/);
      expect(e.message).toMatch(/read the operation state/);
      expect(e.target).toEqual(target);
      expect(e.cause).toBeInstanceOf(ServiceUnavailableError);
      expect(server.requests).toHaveLength(3);
    });

    it('a 503 then the decision: the retried command returns it', async () => {
      const { t } = await setup((n) =>
        n === 0 ? unavailable : { status: 200, body: { outcome: 'already_terminal', operation: OPERATION } },
      );
      expect((await t.client.operations.cancel(target)).outcome).toBe('already_terminal');
    });

    it('a timeout is an unknown outcome', async () => {
      const { t } = await setup(() => 'hang', { timeout: 20, maxRetries: 1 });
      const err = await t.client.operations.cancel({ operation_id: OPERATION.operation_id }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CancelOutcomeUnknownError);
      expect((err as Error).cause).toBeInstanceOf(APITimeoutError);
      expect(((err as Error).cause as Error).message).toMatch(/attempt 2 of 2/);
    });

    it('a connection error is an unknown outcome', async () => {
      const { t } = await setup(() => 'destroy');
      const err = await t.client.operations.cancel(target).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CancelOutcomeUnknownError);
      expect((err as Error).cause).toBeInstanceOf(APIConnectionError);
    });

    it('another 5xx (e.g. a proxy 502) is an unknown outcome too', async () => {
      const { t } = await setup(() => ({ status: 502, raw: 'bad gateway' }));
      await expect(t.client.operations.cancel(target)).rejects.toBeInstanceOf(CancelOutcomeUnknownError);
    });

    it('501 Not Implemented is a definite answer, not an unknown outcome', async () => {
      const { t } = await setup(() => ({ status: 501, body: { code: 'not_implemented', message: 'no' } }));
      const err = await t.client.operations.cancel(target).catch((e: unknown) => e);
      expect(err).not.toBeInstanceOf(CancelOutcomeUnknownError);
      expect(err).toHaveProperty('status', 501);
    });

    it('4xx answers are decisions and keep their class', async () => {
      const { t } = await setup((n) =>
        n === 0
          ? { status: 404, body: { code: 'operation_not_found', message: 'no such operation' } }
          : { status: 400, body: { code: 'validation_error', message: 'bad' } },
      );
      await expect(t.client.operations.cancel(target)).rejects.toBeInstanceOf(NotFoundError);
      await expect(t.client.operations.cancel(target)).rejects.toBeInstanceOf(BadRequestError);
    });
  });

  describe('health', () => {
    it('503 is an answer, not retried', async () => {
      const { server, t } = await setup(() => ({ status: 503, body: { code: 'unhealthy', message: 'starting' } }));
      expect(await t.client.health.check('healthz')).toEqual({ ok: false, status: 503 });
      expect(server.requests).toHaveLength(1);
    });

    it('a 500 on balances is not retried', async () => {
      const { server, t } = await setup(() => ({ status: 500, body: { code: 'ledger_inconsistent', message: 'x' } }));
      await expect(t.client.balances.list()).rejects.toBeInstanceOf(InternalServerError);
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe('connection refused (a port nobody listens on: HTTP only)', () => {
  const scripted = useScripted('http');

  it('connection refused: APIConnectionError after retries, carrying the generated id', async () => {
    const port = await deadPort();
    const t = scripted.client(`http://127.0.0.1:${port}`);
    const err = await t.client.payments.create(CREATE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APITimeoutError);
    const e = err as APIConnectionError;
    expect(e.message).toMatch(/POST \/v1\/payment failed to connect/);
    expect(e.message).toMatch(/ECONNREFUSED/);
    expect(e.message).toMatch(/attempt 3 of 3/);
    expect(e.message).toContain(e.merchantOperationId);
    expect(t.waits).toEqual([500, 1000]);
  });
});
