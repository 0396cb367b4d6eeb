// HEAD on a GET route answered 405, and HEAD /pay/<id> a 404 with a JSON body. HEAD now answers
// like GET, without a body, in process and over HTTP.
import { expect, it } from 'vitest';
import { KEY_A, paymentBody } from '../helpers/harness.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';

describeTransports('HEAD', (transport) => {
  const h = useSandbox({ transport, per: 'file' });

  it('HEAD /v1/balances: 200, the headers of GET, no body', async () => {
    const get = await h.call('GET', '/v1/balances', { key: KEY_A });
    const head = await h.call('HEAD', '/v1/balances', { key: KEY_A });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  });

  it('HEAD without a key is 401 like GET; HEAD /livez is 204', async () => {
    expect((await h.call('HEAD', '/v1/balances', { key: null })).status).toBe(401);
    expect((await h.call('HEAD', '/livez', { key: null })).status).toBe(204);
  });

  it('HEAD /pay/<id>: 200 for a link payment, 404 for an unknown one, never a body', async () => {
    const op = (await h.call('POST', '/v1/payment/link', { key: KEY_A, body: paymentBody() })).body as {
      operation_id: string;
    };
    const ok = await h.call('HEAD', `/pay/${op.operation_id}`, { key: null });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
    expect(ok.headers.get('content-type')).toMatch(/^text\/html/);
    const missing = await h.call('HEAD', '/pay/00000000-0000-5000-8000-000000000000', { key: null });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
  });
});
