// Global setup of the paygate project: a directory for this run's `npm pack` (test/package/install.ts packOnce), so
// the files that need the tarball pack it once between them; removed at the end. Packs nothing itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-pack-run-'));
  project.provide('packDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
