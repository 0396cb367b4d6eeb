// vitest: the package's own tests, and each example project under examples/ with its own config (CI runs them all).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [{ extends: true, test: { name: 'paygate', include: ['test/**/*.test.ts'], globalSetup: ['test/build-cli.setup.ts'] } }, 'examples/*/vitest.config.ts'],
  },
});
