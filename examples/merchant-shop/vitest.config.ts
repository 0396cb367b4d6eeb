// In your own project `npm install --save-dev paygate msw vitest` and this file is not needed. Inside the paygate
// repository the example runs against this checkout's build (npm test builds it first), with the same imports.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

export default defineConfig({
  resolve: { alias: [{ find: /^paygate\/(testing|msw|webhooks|client)$/, replacement: `${dist}$1/index.js` }] },
  test: { name: 'example: merchant-shop', include: ['test/**/*.test.ts'] },
});
