// The node flags the sandbox runs with (docs/performance.md#node-flags) are given wherever it is started for real:
// `npm start`, the Docker image's ENTRYPOINT, and the create benchmark (test/bench/child.mjs), which measures what
// they give. V8 reads them only at start-up (v8.setFlagsFromString cannot resize the young generation later).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the benchmarks, without types
import { SANDBOX_NODE_FLAGS } from '../bench/child.mjs';

const root = new URL('../../', import.meta.url);
const flags = SANDBOX_NODE_FLAGS as string[];

describe('the node flags of the sandbox', () => {
  it('cap the young generation at 8 MB a half', () => {
    expect(flags).toEqual(['--max-semi-space-size=8']);
  });

  it('are given by npm start, before the script', () => {
    const start = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts.start as string;
    expect(start).toBe(`node ${flags.join(' ')} bin/paygate.js sandbox start`);
  });

  it("are given by the Docker image's ENTRYPOINT, before the script", () => {
    const line = readFileSync(new URL('Dockerfile', root), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('ENTRYPOINT '));
    expect(JSON.parse(line!.slice('ENTRYPOINT '.length))).toEqual(['node', ...flags, '/app/bin/paygate.js']);
  });
});
