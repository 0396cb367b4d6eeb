import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileBackend } from '../../src/store/backend.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('FileBackend', () => {
  it('keeps the default workspace at the store path and others beside it, each with its own secrets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-backend-'));
    dirs.push(dir);
    const backend = new FileBackend({ path: join(dir, 'sandbox.json') });
    expect(backend.pathOf('default')).toBe(join(dir, 'sandbox.json'));
    expect(backend.pathOf('ci-1')).toBe(join(dir, 'sandbox.json.workspaces', 'ci-1.json'));
    expect(() => backend.pathOf('../x')).toThrow(/workspace id/);
    const a = backend.workspace('ci-1');
    await a.persistence.open();
    await a.persistence.commit([{ c: 'meta', v: { id: 'probe', n: 1 } }]);
    const s1 = await a.secrets();
    const s2 = await backend.workspace('ci-1').secrets();
    expect(s2.url.equals(s1.url)).toBe(true);
    expect((await backend.workspace('default').secrets()).url.equals(s1.url)).toBe(false);
    await a.persistence.close();
    expect(existsSync(`${backend.pathOf('ci-1')}.journal`)).toBe(true);
    await backend.drop('ci-1');
    expect(existsSync(`${backend.pathOf('ci-1')}.journal`)).toBe(false);
    await expect(backend.drop('default')).rejects.toThrow(/default workspace/);
    await backend.reset();
    expect(existsSync(backend.workspacesDir)).toBe(false);
  });
});
