// Deleting a workspace ends what is in flight in it at once. Three `+slow` creates (the provider takes
// 10 s of sandbox time to accept; the workspace's clock is frozen, so they wait until deleted) and a request-log
// stream in workspace `wsh`; then DELETE /sandbox/workspaces/wsh: the creates answer 404 workspace_not_found, the
// stream ends, and the workspace's timers are gone. No wall-clock wait: the sandbox clock never moves.
import { describe, expect, it } from 'vitest';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { admin, createWs } from './helpers.js';

const ADMIN = 'pg_admin_ws_delete_inflight_0123';

describe('workspaces: deleting one ends its in-flight requests', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, adminToken: ADMIN });

  it('+slow creates answer 404 workspace_not_found and its streams end once it is deleted', async () => {
    const wsh = await createWs(h, ADMIN, { id: 'wsh', clock: 'frozen' });
    const clock = async () =>
      (await admin(h, wsh.adminToken, 'GET', '/w/wsh/sandbox/clock')).body as { pending_timers: number };
    const before = (await clock()).pending_timers;

    const stream = await fetch(`${h.baseUrl}/w/wsh/sandbox/logs/stream`, {
      headers: { 'x-admin-token': wsh.adminToken },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(': paygate stream');
    const ops = await fetch(`${h.baseUrl}/w/wsh/sandbox/operations/stream`, {
      headers: { 'x-admin-token': wsh.adminToken },
    });
    expect(ops.status).toBe(200);

    const creates = [1, 2, 3].map(() =>
      fetch(`${h.baseUrl}/w/wsh/v1/payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': wsh.keys.shop_a! },
        body: JSON.stringify(paymentBody({ client_id: 'alice+slow' })),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: string; message?: string } })),
    );
    // Each create is written (admitting) and waits on its admission timer, 10 s of sandbox time away.
    while ((await clock()).pending_timers < before + 3);

    const del = await admin(h, ADMIN, 'DELETE', '/sandbox/workspaces/wsh');
    expect([del.status, del.body]).toEqual([200, { id: 'wsh', deleted: true }]);

    for (const c of await Promise.all(creates)) {
      expect(c.status).toBe(404);
      expect(c.body.code).toBe('workspace_not_found');
      expect(c.body.message).toMatch(/was deleted while this request was in flight/);
    }
    // The stream ends (the read reaches its end; the requests logged before are all it got).
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).not.toContain('workspace_not_found');
    await ops.text(); // the operations stream ends too
    // The workspace is gone for its admin too, and the default workspace is untouched.
    expect((await admin(h, wsh.adminToken, 'GET', '/w/wsh/sandbox/clock')).status).toBe(401);
    expect((await admin(h, ADMIN, 'GET', '/sandbox/clock')).status).toBe(200);
  }, 15_000);
});
