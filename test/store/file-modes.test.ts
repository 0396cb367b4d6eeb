// The store's files hold webhook secrets and key hashes, and were created world-readable (0644). Every
// file of a store is now owner-only (0600) and the folders it makes are 0700, whatever the umask.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/emulator/index.js';
import { KEY_A, paymentBody } from '../helpers/harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const mode = (p: string) => statSync(p).mode & 0o777;

describe('store file modes', () => {
  it('snapshot, journal, lock, receipt files: 0600; the store and files folders: 0700', async () => {
    const root = mkdtempSync(join(tmpdir(), 'paygate-modes-'));
    dirs.push(root);
    const dir = join(root, '.paygate');
    const store = join(dir, 'sandbox.json');
    const old = process.umask(0o022);
    try {
      const sb = await createSandbox({ store, frozenClock: true, log: () => {} });
      const res = await sb.fetch(
        new Request('http://x/v1/payment', {
          method: 'POST',
          headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
          body: JSON.stringify(paymentBody({ client_id: 'c+receipt' })),
        }),
      );
      const { operation_id } = (await res.json()) as { operation_id: string };
      const form = new FormData();
      form.set('operation_id', operation_id);
      form.set('confirmation_type', 'receipt');
      form.set('receipt', new Blob([new TextEncoder().encode('not a pdf')], { type: 'application/pdf' }), 'r.pdf');
      await (
        await sb.fetch(
          new Request('http://x/v1/confirm_payment', { method: 'POST', headers: { 'x-api-key': KEY_A }, body: form }),
        )
      ).text();
      expect(mode(dir)).toBe(0o700);
      expect(mode(`${store}.journal`)).toBe(0o600);
      expect(mode(`${store}.lock`)).toBe(0o600);
      const files = join(dir, 'sandbox.json.files');
      expect(mode(files)).toBe(0o700);
      for (const f of readdirSync(files)) expect(mode(join(files, f)), f).toBe(0o600);
      await sb.close();
      expect(mode(store)).toBe(0o600); // written by the compaction on close
    } finally {
      process.umask(old);
    }
  });
});
