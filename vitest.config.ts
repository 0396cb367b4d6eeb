// vitest: the package's own tests, and each example project under examples/ with its own config (CI runs them all).
// The suites that need a browser, a PostgreSQL cluster or a tmpfs mount are projects of their own, so a developer
// runs the rest alone: `npx vitest run --project paygate` (`npm test` still runs every project).
import { configDefaults, defineConfig } from 'vitest/config';

/** The suites of each separate project; `paygate` is every other test file. */
export const SEPARATE = {
  browser: ['test/pages/browser-*.test.ts', 'test/dashboard/browser-*.test.ts'],
  postgres: [
    'test/postgres/**/*.test.ts',
    'test/cluster/**/*.test.ts',
    'test/store/persistence-contract.test.ts',
    'test/store/rollback-backends.property.test.ts',
  ],
  'full-disk': ['test/store/full-disk.test.ts', 'test/e2e/full-disk.test.ts'],
};
const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
  timeouts: { testTimeout?: number; hookTimeout?: number } = {},
) => ({
  extends: true as const,
  test: {
    name,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    globalSetup: ['test/build-cli.setup.ts'],
    ...timeouts,
  },
});

export default defineConfig({
  test: {
    projects: [
      project('paygate', ['test/**/*.test.ts'], [...Object.values(SEPARATE).flat(), 'test/container/**']),
      ...Object.entries(SEPARATE).map(([name, include]) => project(name, include)),
      // The Docker image (issue 30): builds and runs it; alone with `npx vitest run --project container`.
      project('container', ['test/container/**/*.test.ts'], [], { testTimeout: 120_000, hookTimeout: 20 * 60_000 }),
      'examples/*/vitest.config.ts',
    ],
  },
});
