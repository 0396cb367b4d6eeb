// Body limits over a real socket: a chunked body with no Content-Length is cut off at the limit with a 413,
// and the connection still carries the answer. One JSON request means one thing: no key twice in one object, UTF-8
// only, and error messages that quote a request value bounded and name the JSON type that came.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { sandboxControls } from '../../src/contract/index.js';
import { KEY_A, paymentBody, payoutBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { describeTransports } from '../helpers/transport.js';

describe('request bodies over HTTP', () => {
  const h = useSandbox({ transport: 'http' });

  const send = (chunks: string[], headers: Record<string, string> = {}) =>
    new Promise<[number, string]>((resolve, reject) => {
      const u = new URL(h.baseUrl);
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: '/v1/payment',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': KEY_A,
            'transfer-encoding': 'chunked',
            ...headers,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve([res.statusCode!, body]));
        },
      );
      req.on('error', reject);
      for (const c of chunks) req.write(c);
      req.end();
    });

  it('a chunked body over the limit is a 413 and nothing is stored', async () => {
    const [status, body] = await send(Array.from({ length: 20 }, () => 'x'.repeat(8192)));
    expect(status).toBe(413);
    expect(JSON.parse(body).code).toBe('body_too_large');
    expect(h.sandbox.store.state.operations.size).toBe(0);
  });

  it('a chunked body within the limit is read whole', async () => {
    const json = JSON.stringify({
      merchant_operation_id: 'chunked-1',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '150.00',
      currency: 'RUB',
    });
    const [status, body] = await send([json.slice(0, 10), json.slice(10, 40), json.slice(40)]);
    expect(status).toBe(200);
    expect(JSON.parse(body).expected_amount).toBe('150.00');
  });
});

describeTransports('one JSON request means one thing', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, adminToken: 'adm' });
  const ops = () => h.sandbox.store.state.operations.size;
  const create = (raw: string, headers: Record<string, string> = {}) =>
    h.call('POST', '/v1/payment', { raw, headers: { 'content-type': 'application/json', ...headers } });
  const json = (over: Record<string, unknown> = {}) => JSON.stringify(paymentBody(over));

  it('a key sent twice is refused with the key named, wherever it is, and nothing is stored', async () => {
    const body = json({ amount: '100.00' });
    const twice = await create(`${body.slice(0, -1)},"amount":"200.00"}`);
    expect(twice.status, twice.text).toBe(400);
    expect(twice.body).toEqual({
      code: 'validation_error',
      message: 'amount: is sent more than once in one object; send each field once',
    });
    // Spelled differently, the same key for JSON.parse.
    const escaped = await create(`${body.slice(0, -1)},"\\u0061mount":"200.00"}`);
    expect(escaped.status).toBe(400);
    expect(escaped.body.message).toMatch(/^amount: /);
    // Deeper, on a sandbox control.
    const faults = await h.call('PUT', sandboxControls['faults.set'].path, {
      key: null,
      raw: '{"faults":[{"endpoint":"payment.create","status":503},{"endpoint":"payment.create","status":503,"status":500}]}',
      headers: { 'content-type': 'application/json', 'x-admin-token': 'adm' },
    });
    expect(faults.status, faults.text).toBe(400);
    expect(faults.body.message).toMatch(/^faults\[1\]\.status: is sent more than once/);
    expect(
      (await h.call('GET', sandboxControls['faults.list'].path, { key: null, headers: { 'x-admin-token': 'adm' } }))
        .body.faults,
    ).toEqual([]);
    expect(ops()).toBe(0);
  });

  it('equal keys in different objects, and colons inside strings, are fine', async () => {
    const r = await create(json({ merchant_operation_id: 'a:b:c', client_id: 'x:"amount":1' }));
    expect(r.status, r.text).toBe(200);
    expect(ops()).toBe(1);
  });

  it('a charset other than UTF-8 is a 415 saying to send UTF-8; utf-8 and utf8, any case, quoted or not, are read', async () => {
    for (const type of [
      'application/json; charset=utf-16',
      'application/json;charset=ISO-8859-1',
      'application/json; charset=""',
      'application/json; charset="utf-16le"',
    ]) {
      const r = await create(json(), { 'content-type': type });
      expect(r.status, type).toBe(415);
      expect(r.body.code).toBe('unsupported_media_type');
      expect(r.body.message).toContain('send the body in UTF-8');
    }
    expect(ops()).toBe(0);
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="utf8"',
      'application/json; CHARSET=Utf8',
      'application/json',
    ]) {
      const r = await create(json(), { 'content-type': type });
      expect(r.status, `${type}: ${r.text}`).toBe(200);
    }
  });

  it('an echoed value is at most 64 characters and "…"; a long Content-Type, method, currency or bank likewise', async () => {
    const long = 'M'.repeat(30_000);
    const method = await create(json({ method: long }));
    expect(method.status).toBe(400);
    expect(method.body.code).toBe('unknown_method');
    expect(method.body.message).toContain(`method ${'M'.repeat(64)}… is not supported`);
    expect(method.text.length).toBeLessThan(500);
    const currency = await create(json({ currency: 'R'.repeat(5000) }));
    expect(currency.status).toBe(400);
    expect(currency.text.length).toBeLessThan(500);
    const bank = await h.call('POST', '/v1/payout', {
      body: payoutBody({ method: 'WT_RUB_PHONE', bankname: 'b'.repeat(5000) }),
    });
    expect(bank.body.code).toBe('unknown_bank');
    expect(bank.body.message).toContain(`bankname ${'b'.repeat(64)}… is not in`);
    const type = await create(json(), { 'content-type': `text/${'x'.repeat(5000)}` });
    expect(type.status).toBe(415);
    expect(type.text.length).toBeLessThan(500);
    const key = await create(`${json().slice(0, -1)},"${'k'.repeat(5000)}":1,"${'k'.repeat(5000)}":2}`);
    expect(key.status).toBe(400);
    expect(key.text.length).toBeLessThan(500);
    const path = await h.call('POST', `/v1/${'p'.repeat(5000)}`, { body: {} });
    expect(path.status).toBe(404);
    expect(path.text.length).toBeLessThan(500);
    const fault = await h.call('POST', sandboxControls['faults.add'].path, {
      key: null,
      headers: { 'x-admin-token': 'adm' },
      body: { endpoint: 'e'.repeat(5000), status: 503, ['u'.repeat(5000)]: 1 },
    });
    expect(fault.status).toBe(400);
    expect(fault.body.message).toContain(`"${'u'.repeat(64)}…"`);
    expect(fault.text.length).toBeLessThan(1000);
    expect(ops()).toBe(0);
    // The idempotency key of a conflict.
    const moid = 'i'.repeat(5000);
    expect((await create(json({ merchant_operation_id: moid }))).status).toBe(200);
    const conflict = await create(json({ merchant_operation_id: moid, amount: '2.00' }));
    expect(conflict.body.code).toBe('idempotency_conflict');
    expect(conflict.body.message).toContain(`merchant_operation_id ${'i'.repeat(64)}… was already used`);
  });

  it.each([
    [null, 'null'],
    [true, 'a boolean'],
    [[], 'an array'],
    [{}, 'an object'],
    [100, 'a number'],
  ])('amount %j is refused as %s', async (amount, type) => {
    const r = await create(json({ amount }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'validation_error',
      message: `amount: expected a decimal string like "100.00", got ${type}`,
    });
    expect(ops()).toBe(0);
  });
});
