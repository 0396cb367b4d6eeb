// A store folder that cannot be written was reported as "not allowed to listen … pick a port above
// 1024". A file-system failure now names the path, the errno and what to do; only a listen failure speaks of ports.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explain } from '../../../../src/cli/commands/sandbox/start.js';
import { runCli } from '../../run-cli.js';

const errno = (code: string, syscall: string, path?: string) =>
  Object.assign(new Error(`${code}: ${syscall}`), { code, syscall, ...(path ? { path } : {}) });

describe('sandbox start failures', () => {
  it('EACCES writing the store names the file and the errno, not the port', () => {
    const e = explain(errno('EACCES', 'open', '/srv/paygate/sandbox.json.lock'), 4080, '127.0.0.1');
    expect(e.message).toBe('cannot use the store at /srv/paygate/sandbox.json.lock: EACCES (open)');
    expect(e.hint).toContain('--store <a writable path> or --in-memory');
    expect(e.message).not.toContain('port');
  });

  it('EACCES on listen is still about the port', () => {
    const e = explain(errno('EACCES', 'listen'), 80, '127.0.0.1');
    expect(e.message).toBe('not allowed to listen on 127.0.0.1:80');
  });

  it('end to end: a store path under a file is exit 5 naming the path and the errno', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-start-'));
    try {
      const file = join(dir, 'plain-file');
      writeFileSync(file, 'x');
      const r = await runCli(['sandbox', 'start', '--port', '0', '--store', join(file, 'sandbox.json')]);
      expect(r.code).toBe(5);
      expect(r.stderr).toContain(`cannot use the store at ${file}`);
      expect(r.stderr).toMatch(/EEXIST|ENOTDIR/); // mkdir meets a file where a folder should be
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('end to end: a damaged complete journal line is exit 5 naming the file, the line and what to do; the file is untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-start-'));
    try {
      const store = join(dir, 'sandbox.json');
      const journal = `${store}.journal`;
      const good = `${JSON.stringify({ seq: 1, ch: [{ c: 'operations', v: { id: 'a' } }] })}\n`;
      writeFileSync(journal, `${good}{"seq":2,"ch":[{"c":"operations"\n`);
      const before = readFileSync(journal);
      const r = await runCli(['sandbox', 'start', '--port', '0', '--store', store]);
      expect(r.code).toBe(5);
      expect(r.stderr).toContain(`paygate store journal ${journal} at line 2 is corrupt: the line is not valid JSON`);
      expect(r.stderr).toContain('delete that line and every line after it');
      expect(r.stderr).not.toMatch(/\bport\b/);
      expect(readFileSync(journal).equals(before)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
