// vitest: the package's own tests, and each example project under examples/ with its own config (CI runs them all).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'paygate', include: ['test/**/*.test.ts'], exclude: ['test/container/**', '**/node_modules/**'], globalSetup: ['test/build-cli.setup.ts'] } },
      // The Docker image (issue 30): builds and runs it; alone with `npx vitest run --project container`.
      { extends: true, test: { name: 'container', include: ['test/container/**/*.test.ts'], globalSetup: ['test/build-cli.setup.ts'], testTimeout: 120_000, hookTimeout: 20 * 60_000 } },
      'examples/*/vitest.config.ts',
    ],
  },
});
