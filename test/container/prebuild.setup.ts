// Global setup of the container project: starts building the image as soon as the run begins, in the background,
// and hands its tag to image.test.ts, which runs last (vitest.config.ts) and waits for the build to end. The minutes
// of a first build (debootstrap, `npm ci`, tsc) then overlap the other projects' tests. Without a docker daemon it
// does nothing (the test skips, loudly). The teardown waits for the build and removes the image.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { buildImageInto, dockerAnswers } from './image.js';

export default function setup(project: TestProject): (() => Promise<void>) | undefined {
  if (!dockerAnswers()) {
    project.provide('containerPrebuild', null);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'paygate-container-'));
  const image = `paygate-test:${process.pid}-${randomBytes(3).toString('hex')}`;
  const status = join(dir, 'status.json');
  const building = buildImageInto(image, status);
  project.provide('containerPrebuild', { image, status });
  return async () => {
    await building;
    await promisify(execFile)('docker', ['rmi', '-f', image]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
}
