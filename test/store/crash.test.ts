// Crash safety with a real process: a child commits from 8 concurrent workers and is SIGKILLed mid-stream; the
// next owner must take over its lock and find every transaction the child had acknowledged.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/file-persistence.js';

const MODULE = fileURLToPath(new URL('../../src/store/file-persistence.ts', import.meta.url));

const CHILD = `
const m = await import(process.argv[2]);
const { FilePersistence } = m.FilePersistence ? m : m.default;
const p = new FilePersistence({ path: process.argv[3] });
await p.open();
let n = 0;
const worker = async (w) => {
  for (;;) {
    const id = 'w' + w + '_' + n++;
    await p.commit([{ c: 'operations', v: { id, pad: 'x'.repeat(700) } }, { c: 'postings', v: { id: 'p_' + id } }]);
    process.stdout.write(id + '\\n');
  }
};
for (let w = 0; w < 8; w++) void worker(w);
`;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-store-`);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it("every acknowledged commit survives SIGKILL of its owner, and the dead owner's lock is taken over", async () => {
  const script = path.join(dir, 'child.mjs');
  fs.writeFileSync(script, CHILD);
  const store = path.join(dir, '.paygate', 'sandbox.json');
  const child = spawn(process.execPath, ['--import', 'jiti/register', script, MODULE, store], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, JITI_FS_CACHE: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acked: string[] = [];
  let buffered = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      acked.push(...lines);
      if (acked.length >= 300) {
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  await exited; // reaped: its pid is dead now
  expect(fs.existsSync(`${store}.lock`)).toBe(true); // SIGKILL left it behind

  const p = new FilePersistence({ path: store });
  const all = await p.open();
  try {
    const ops = new Set((all.operations ?? []).map((e) => e.id));
    const postings = new Set((all.postings ?? []).map((e) => e.id));
    expect(acked.length).toBeGreaterThanOrEqual(300);
    for (const id of acked) {
      expect(ops.has(id)).toBe(true);
      expect(postings.has(`p_${id}`)).toBe(true);
    }
    // atomic transactions: never an operation without its posting or the reverse
    expect(ops.size).toBe(postings.size);
    expect(p.stats.journalRecords).toBe(0); // replayed and compacted
  } finally {
    await p.close();
  }
}, 30_000);
