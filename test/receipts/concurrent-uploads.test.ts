// Two receipt uploads to one payment at the same moment got the same upload number and file; the
// losing upload (409) overwrote the stored file, so receipt_url served the other PDF. Each upload now has its own
// file, the loser's file is removed, and receipt_url serves exactly the receipt that decided the status.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/emulator/index.js';
import { KEY_A, paymentBody } from '../helpers/harness.js';

const receipt = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));
const open: { sb: Sandbox; dir: string }[] = [];
afterEach(async () => {
  for (const { sb, dir } of open.splice(0)) {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function upload(sb: Sandbox, id: string, name: string) {
  const form = new FormData();
  form.set('operation_id', id);
  form.set('confirmation_type', 'receipt');
  form.set('receipt', new Blob([receipt(name)], { type: 'application/pdf' }), name);
  const res = await sb.fetch(
    new Request('http://paygate.local/v1/confirm_payment', {
      method: 'POST',
      headers: { 'x-api-key': KEY_A },
      body: form,
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('concurrent receipt uploads to one payment', () => {
  it('one decides, the other is 409; the stored file and receipt_url are the winner’s, and no other file is left', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'paygate-uploads-'));
      const sb = await createSandbox({ store: join(dir, 'sandbox.json'), frozenClock: true, log: () => {} });
      open.push({ sb, dir });
      const res = await sb.fetch(
        new Request('http://paygate.local/v1/payment', {
          method: 'POST',
          headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
          body: JSON.stringify(paymentBody({ client_id: 'payer+receipt' })),
        }),
      );
      const { operation_id: id } = (await res.json()) as { operation_id: string };
      const [a, b] = await Promise.all([upload(sb, id, 'ok-1500.pdf'), upload(sb, id, 'fake-photoshop.pdf')]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? 'ok-1500.pdf' : 'fake-photoshop.pdf';

      const files = readdirSync(join(dir, 'sandbox.json.files'));
      expect(files).toHaveLength(1);
      expect(readFileSync(join(dir, 'sandbox.json.files', files[0]!)).equals(receipt(winner))).toBe(true);
      const op = sb.service.state.operation(id)!;
      expect(op.type === 'payment' && op.uploads?.length).toBe(1);
      const state = await sb.fetch(
        new Request('http://paygate.local/v1/get_operation_state', {
          method: 'POST',
          headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
          body: JSON.stringify({ operation_id: id }),
        }),
      );
      const url = ((await state.json()) as { receipts: { receipt_url: string | null }[] }).receipts[0]?.receipt_url;
      if (url) {
        const file = await sb.fetch(new Request(url));
        expect(Buffer.from(await file.arrayBuffer()).equals(receipt(winner))).toBe(true);
      }
    }
  }, 60_000);
});
