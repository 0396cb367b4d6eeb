// How vitest schedules the test files (vitest.config.ts): two files at a time even on 2 cores; the postgres and
// full-disk projects after the others, one file at a time; the container project's image built by its global setup
// from the start of the run, its file last of its group and the browser project's files just before it.
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import config, { Scheduled } from '../../vitest.config.js';

interface ProjectConfig {
  test: { name: string; maxWorkers?: number; sequence?: { groupOrder?: number }; globalSetup?: string[] };
}
const projects = (config.test!.projects as (string | ProjectConfig)[]).filter(
  (p): p is ProjectConfig => typeof p === 'object',
);
const named = (name: string) => projects.find((p) => p.test.name === name)!.test;

/** A file of `project` as the sequencer sees it (no cached results or stats: vitest's first run, as in CI). */
const spec = (project: string, file: string, groupOrder = 0) =>
  ({
    project: { name: project, config: { sequence: { groupOrder }, isolate: true } },
    moduleId: `/repo/test/${file}`,
  }) as unknown as TestSpecification;

describe('the test schedule', () => {
  it('runs two files at a time at least; postgres and full-disk after the others, one at a time', () => {
    expect(config.test!.maxWorkers).toBeGreaterThanOrEqual(2);
    for (const name of ['postgres', 'full-disk'])
      expect([name, named(name).maxWorkers, named(name).sequence]).toEqual([name, 1, { groupOrder: 1 }]);
    for (const name of ['paygate', 'browser', 'container']) {
      expect([name, named(name).maxWorkers, named(name).sequence?.groupOrder ?? 0]).toEqual([name, undefined, 0]);
    }
  });

  it('the container project builds its image in a global setup, so the build starts with the run', () => {
    expect(named('container').globalSetup).toContain('test/container/prebuild.setup.ts');
    expect(named('paygate').globalSetup).not.toContain('test/container/prebuild.setup.ts');
  });

  it("runs the paygate project's files first, the browser's next, the container's last of the group, then the serial projects'", async () => {
    const ctx = {
      config: { root: '/repo' },
      cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
    };
    const files = [
      spec('postgres', 'postgres/a.test.ts', 1),
      spec('container', 'container/image.test.ts'),
      spec('browser', 'pages/browser-flows.test.ts'),
      spec('paygate', 'cli/run.test.ts'),
      spec('full-disk', 'store/full-disk.test.ts', 1),
      spec('paygate', 'cli/e2e.test.ts'),
    ];
    const sorted = await new Scheduled(ctx as never).sort(files);
    expect(sorted.map((s) => s.project.name)).toEqual([
      'paygate',
      'paygate',
      'browser',
      'container',
      'full-disk',
      'postgres',
    ]);
  });
});
