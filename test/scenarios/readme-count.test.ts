// The README's figures about the bundled scenario library name as many scenarios as scenarios/ holds (issue 24: it
// said 121 when there were 133). Adding a scenario means updating the README's transcript and performance text.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discover } from '../../src/scenarios/discover.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README: the scenario library', () => {
  it('every count of the bundled scenarios is the number of files in scenarios/', () => {
    const count = discover(['scenarios/'], root).length;
    const claims = [...readme.matchAll(/Running (\d+) scenarios|scenarios: (\d+) passed|; (\d+) scenarios take/g)].map((m) => Number(m[1] ?? m[2] ?? m[3]));
    expect(claims.length).toBeGreaterThanOrEqual(3);
    expect(claims).toEqual(claims.map(() => count));
  });
});
