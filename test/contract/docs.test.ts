// docs/state-machine.md embeds the generated state table; this fails when the table changed and the doc did not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderStateTable } from '../../src/domain/state-table.js';

describe('docs', () => {
  it('docs/state-machine.md carries the current state table (run `npm run docs`)', () => {
    const doc = readFileSync(new URL('../../docs/state-machine.md', import.meta.url), 'utf8');
    const m = /<!-- state-table:begin -->\n([\s\S]*?)<!-- state-table:end -->/.exec(doc);
    expect(m?.[1]).toBe(`${renderStateTable()}\n`);
  });
});
