// The snapshot writer's buffer: lines of any size (larger than the buffer too, multi-byte text) land in the file in
// order, and each line's offset is where it starts in the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'node:fs/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ChunkWriter } from '../../src/store/chunk-writer.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-chunk-`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('writes every line in order through a small buffer and reports where each one starts', async () => {
  const file = path.join(dir, 'out');
  const fh = await open(file, 'w');
  const w = new ChunkWriter(fh, 64);
  const lines = [
    'short\n',
    `${'x'.repeat(63)}\n`,
    `${'ü'.repeat(50)}\n`,
    `${'long '.repeat(40)}\n`,
    'a\n',
    `${'€'.repeat(5)}\n`,
  ];
  const offsets: number[] = [];
  for (const line of lines) {
    offsets.push(await w.add(line));
    expect(w.lastLength).toBe(Buffer.byteLength(line));
  }
  await w.flush();
  await fh.close();
  const bytes = fs.readFileSync(file);
  expect(bytes.toString('utf8')).toBe(lines.join(''));
  lines.forEach((line, i) =>
    expect(bytes.subarray(offsets[i]!, offsets[i]! + Buffer.byteLength(line)).toString('utf8')).toBe(line),
  );
});
