// The dashboard takes the admin token its clients hold, also when the server keeps it only hashed: after a restart
// on the same store (the token not shown again), and beside a token added with --add-admin-token.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/emulator/index.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const defer = useCleanup();

async function start(store: string, opts: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await createSandbox({ store, frozenClock: true, log: () => {}, ...opts });
  defer(() => sb.close());
  return sb;
}

async function signIn(sb: Sandbox, credential: string): Promise<number> {
  const res = await sb.fetch(
    new Request('http://paygate.local/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ credential }).toString(),
    }),
  );
  await res.body?.cancel();
  return res.status;
}

describe('dashboard sign-in across restarts', () => {
  it('the kept admin token (only its hash stored) and an added one both sign in; a wrong one does not', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    let sb = await start(store);
    const first = sb.adminToken!;
    expect(await signIn(sb, first)).toBe(303);
    await sb.close();
    sb = await start(store);
    expect(sb.adminToken).toBeUndefined(); // kept from the earlier start: not shown again
    expect(await signIn(sb, first)).toBe(303);
    await sb.close();
    sb = await start(store, { addAdminToken: true });
    expect(await signIn(sb, sb.adminToken!)).toBe(303);
    expect(await signIn(sb, first)).toBe(303);
    expect(await signIn(sb, `${first}x`)).toBe(401);
  });
});
