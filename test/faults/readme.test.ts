// docs/faults.md ("Fault injection", moved from the README) lists, per endpoint, exactly the failure cases of
// src/contract/faults.ts, and every code is in the error table of docs/decisions.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointId } from '../../src/contract/endpoints.js';
import { FAULT_CASES } from '../../src/contract/faults.js';

const FAULTS = readFileSync(new URL('../../docs/faults.md', import.meta.url), 'utf8');
const DECISIONS = readFileSync(new URL('../../docs/decisions.md', import.meta.url), 'utf8');

/** The table of docs/faults.md: one row per endpoint, its statuses with their codes, default first. */
function faultTable(): string {
  const rows = (Object.entries(FAULT_CASES) as [EndpointId, (typeof FAULT_CASES)[EndpointId]][]).map(([id, cases]) => {
    const byStatus = new Map<number, string[]>();
    for (const c of cases) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), `\`${c.code}\``]);
    return `| \`${endpoints[id].id}\` | ${[...byStatus].map(([s, codes]) => `${s} ${codes.join(', ')}`).join(' · ')} |`;
  });
  return ['| endpoint | status and codes (the first of each status is the default) |', '|---|---|', ...rows].join('\n');
}

describe('docs/faults.md and docs/decisions.md', () => {
  it('"Fault injection" carries the table of every endpoint\'s failure cases', () => {
    expect(FAULTS).toContain(faultTable());
  });

  it('the error table of "Decisions" names every code a fault can answer', () => {
    const start = DECISIONS.indexOf('- **Error body.**');
    const end = DECISIONS.indexOf('- **Amounts.**');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const errors = DECISIONS.slice(start, end);
    for (const c of Object.values(FAULT_CASES).flat()) expect(errors, c.code).toContain(`\`${c.code}\``);
  });
});
