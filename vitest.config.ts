// vitest: the package's own tests, and each example project under examples/ with its own config (CI runs them all).
// The suites that need a browser, a PostgreSQL cluster or a tmpfs mount are projects of their own, so a developer
// runs the rest alone: `npx vitest run --project paygate` (`npm test` still runs every project).
// Two test files at a time even on 2 cores (vitest's default there is one): most of a file's time is a child process,
// a browser, a server or a container, not its own CPU. The postgres and full-disk projects (failover and lease timings,
// a filling tmpfs) run after the others, one file at a time; the container project's file runs last of the first
// group, while its image is built in the background from the start (test/container/prebuild.setup.ts), and the
// browser project's files just before it.
import { availableParallelism } from 'node:os';
import type { TestSequencer, TestSpecification } from 'vitest/node';
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
/** The projects that run after the others, one file at a time. */
const SERIAL = ['postgres', 'full-disk'];
const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
  options: { testTimeout?: number; hookTimeout?: number; globalSetup?: string[] } = {},
) => ({
  extends: true as const,
  test: {
    name,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    ...options,
    globalSetup: ['test/build-cli.setup.ts', ...(options.globalSetup ?? [])],
    ...(SERIAL.includes(name) ? { maxWorkers: 1, sequence: { groupOrder: 1 } } : {}),
  },
});

/** Where a project's files go within their group: the paygate project's first, the browser's later (once the
 * container image's build, which starts with the run, has left the CPU), the container project's last. */
const LATER: Record<string, number> = { browser: 1, container: 2 };

/** vitest's order (longest or largest file first) within each group, projects ordered by LATER. */
export class Scheduled implements TestSequencer {
  constructor(private readonly ctx: ConstructorParameters<typeof import('vitest/node').BaseSequencer>[0]) {}
  private async base(): Promise<TestSequencer> {
    const { BaseSequencer } = await import('vitest/node');
    return new BaseSequencer(this.ctx);
  }
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await this.base()).shard(files);
  }
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (s: TestSpecification) => s.project.config.sequence.groupOrder * 3 + (LATER[s.project.name] ?? 0);
    return [...(await (await this.base()).sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // vitest's defaults (5 s, 10 s) are tight for two files at a time on 2 loaded cores; what a test asserts about
    // time is in its own expectations and timeouts, not in these.
    testTimeout: 15_000,
    hookTimeout: 30_000,
    sequence: { sequencer: Scheduled },
    projects: [
      project('paygate', ['test/**/*.test.ts'], [...Object.values(SEPARATE).flat(), 'test/container/**'], {
        globalSetup: ['test/package/pack.setup.ts'],
      }),
      ...Object.entries(SEPARATE).map(([name, include]) => project(name, include)),
      // The Docker image (issue 30): builds and runs it; alone with `npx vitest run --project container`.
      project('container', ['test/container/**/*.test.ts'], [], {
        testTimeout: 120_000,
        hookTimeout: 20 * 60_000,
        globalSetup: ['test/container/prebuild.setup.ts'],
      }),
      'examples/*/vitest.config.ts',
    ],
  },
});
