// The docs' figures about the bundled scenario library name as many scenarios as scenarios/ holds (the README
// said 121 when there were 133). They moved from the README to docs/scenarios.md (the transcript) and
// docs/performance.md (the timing): adding a scenario means updating both.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discover } from '../../src/scenarios/discover.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = ['README.md', 'docs/scenarios.md', 'docs/performance.md']
  .map((f) => readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8'))
  .join('\n');

describe('README and docs: the scenario library', () => {
  it('every count of the bundled scenarios is the number of files in scenarios/', () => {
    const count = discover(['scenarios/'], root).length;
    const claims = [...readme.matchAll(/Running (\d+) scenarios|scenarios: (\d+) passed|; (\d+) scenarios take/g)].map(
      (m) => Number(m[1] ?? m[2] ?? m[3]),
    );
    expect(claims.length).toBeGreaterThanOrEqual(3);
    expect(claims).toEqual(claims.map(() => count));
  });
});
