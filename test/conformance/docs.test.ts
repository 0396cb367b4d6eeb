// docs/conformance.md embeds the rule catalogue; this fails when RULES changed and the page did not (`npm run docs`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES, renderRules } from '../../src/conformance/index.js';

describe('docs/conformance.md', () => {
  const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');

  it('carries the current rule catalogue (run `npm run docs`)', () => {
    const m = /<!-- conformance-rules:begin -->\n([\s\S]*?)<!-- conformance-rules:end -->/.exec(doc);
    expect(m?.[1]).toBe(`${renderRules()}\n`);
  });

  it('names every rule id once, with its section, and the ids are unique', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const r of RULES) expect(doc).toContain(`| \`${r.id}\` | ${r.kind} | ${r.section} |`);
  });

  it('is linked from docs/README.md', () => {
    expect(readFileSync(new URL('../../docs/README.md', import.meta.url), 'utf8')).toContain('(conformance.md)');
  });
});
