// 2xx bodies are checked against the contract: drift is a ContractMismatchError naming endpoint and field (against a
// scripted gateway in-process).
import { describe, expect, it } from 'vitest';
import { ContractMismatchError } from '../../src/client/index.js';
import { AVAILABILITY, BALANCES, CREATE, OPERATION, OPERATION_STATE, type Reply, type TestServer } from './helpers.js';
import { useScripted } from '../helpers/scripted.js';

/** Not HTTP itself: in-process only. */
const scripted = useScripted('in-process');
let server: TestServer | undefined;

async function answering(reply: Reply) {
  const started = await scripted.start(() => reply);
  server = started.server;
  return started.t.client;
}

async function mismatch(p: Promise<unknown>): Promise<ContractMismatchError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ContractMismatchError);
  return err as ContractMismatchError;
}

describe('response validation', () => {
  it('names the endpoint and the failing field', async () => {
    const bad = { ...OPERATION, settlement_amount: '97' };
    const client = await answering({ status: 200, body: bad });
    const err = await mismatch(client.payments.create(CREATE));
    expect(err.message).toBe(
      'POST /v1/payment: response field "settlement_amount": must be a decimal string at scale 2',
    );
    expect(err.endpoint).toBe('POST /v1/payment');
    expect(err.status).toBe(200);
    expect(err.body).toEqual(bad);
    expect(err.issues[0]?.path).toEqual(['settlement_amount']);
    expect(server!.requests).toHaveLength(1);
  });

  it('a missing field and a JSON number amount', async () => {
    const { commission_amount: _dropped, ...rest } = OPERATION;
    const client = await answering({ status: 200, body: { ...rest, expected_amount: 100 } });
    const err = await mismatch(client.payouts.create(CREATE));
    expect(err.message).toMatch(/^POST \/v1\/payout: /);
    expect(err.message).toContain('response field "expected_amount"');
    expect(err.message).toContain('response field "commission_amount": is missing');
  });

  it('nested paths are shown with indexes', async () => {
    const client = await answering({
      status: 200,
      body: {
        balances: [BALANCES.balances[0], { currency: 'USD', balance: '1', current_minus: '0.00', reserved: '0.00' }],
      },
    });
    const err = await mismatch(client.balances.list());
    expect(err.message).toBe(
      'GET /v1/balances: response field "balances[1].balance": must be a decimal string at scale 2',
    );
  });

  it('lists at most three fields', async () => {
    const client = await answering({
      status: 200,
      body: {
        ...OPERATION_STATE,
        operation_id: 'x',
        type: 'refund',
        status: 'weird',
        receipts: 'none',
        receipt_evidence_status: 'nah',
      },
    });
    const err = await mismatch(client.operations.get({ merchant_operation_id: 'm' }));
    expect(err.message).toMatch(/\(and 2 more\)$/);
    expect(err.issues).toHaveLength(5);
  });

  it('a union (flexible link) reports the closest branch', async () => {
    const client = await answering({
      status: 200,
      body: {
        operation_id: OPERATION.operation_id,
        status: 'amount_selection',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '1.00',
        payment_url: 5,
      },
    });
    const err = await mismatch(
      client.payments.createFlexibleLink({
        client_id: 'c',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '1.00',
      }),
    );
    expect(err.message).toMatch(/^POST \/v1\/payment\/link\/flexible: response field "payment_url": /);
  });

  it('a wrong literal (reserved must be false)', async () => {
    const client = await answering({ status: 200, body: { ...AVAILABILITY, reserved: true } });
    const err = await mismatch(
      client.payments.availability({ method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '1.00', max_amount: '2.00' }),
    );
    expect(err.message).toMatch(/^GET \/v1\/payment\/availability: response field "reserved": /);
  });

  it('a body that is not an object', async () => {
    const client = await answering({ status: 200, body: [1, 2] });
    const err = await mismatch(client.balances.list());
    expect(err.message).toMatch(/^GET \/v1\/balances: response body: /);
  });

  it('a body that is not JSON', async () => {
    const client = await answering({ status: 200, raw: '<html>hi</html>' });
    const err = await mismatch(client.balances.list());
    expect(err.message).toBe('GET /v1/balances: response body is not JSON: "<html>hi</html>"');
    expect(err.body).toBe('<html>hi</html>');
  });

  it('unknown extra fields are fine (additive versioning) and kept in the raw body', async () => {
    const client = await answering({ status: 200, body: { ...OPERATION, new_field: 'x' } });
    const { data, response } = await client.payments.create(CREATE).withResponse();
    expect(data).toEqual(OPERATION);
    expect(response.body).toMatchObject({ new_field: 'x' });
  });
});
