// Fills a file store with N payments through the service (no HTTP), then closes it (compacted snapshot).
import { createSandbox } from '../../dist/emulator/index.js';

const [store, countText] = process.argv.slice(2);
const count = Number(countText);
const sb = await createSandbox({ store, reset: true, fsync: false, log: () => {} });
const batch = [];
for (let i = 0; i < count; i++) {
  batch.push(
    sb.service.create('shop_a', 'payment', {
      merchant_operation_id: `prefill-${i}`,
      client_id: `client-${i % 997}`,
      method: 'WT_RUB_C2C',
      amount: `${100 + (i % 5000)}.00`,
      currency: 'RUB',
    }),
  );
  if (batch.length === 2000) await Promise.all(batch.splice(0));
}
await Promise.all(batch);
await sb.close();
process.stdout.write(JSON.stringify({ prefilled: count }) + '\n');
