// README "Fault injection" lists, per endpoint, exactly the failure cases of src/contract/faults.ts (and every code in
// the error table of "Decisions").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointId } from '../../src/contract/endpoints.js';
import { FAULT_CASES } from '../../src/contract/faults.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The table of README "Fault injection": one row per endpoint, its statuses with their codes, default first. */
function faultTable(): string {
  const rows = (Object.entries(FAULT_CASES) as [EndpointId, (typeof FAULT_CASES)[EndpointId]][]).map(([id, cases]) => {
    const byStatus = new Map<number, string[]>();
    for (const c of cases) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), `\`${c.code}\``]);
    return `| \`${endpoints[id].id}\` | ${[...byStatus].map(([s, codes]) => `${s} ${codes.join(', ')}`).join(' · ')} |`;
  });
  return ['| endpoint | status and codes (the first of each status is the default) |', '|---|---|', ...rows].join('\n');
}

describe('README', () => {
  it('"Fault injection" carries the table of every endpoint\'s failure cases', () => {
    expect(README).toContain(faultTable());
  });

  it('the error table of "Decisions" names every code a fault can answer', () => {
    const errors = README.slice(README.indexOf('- **Error body.**'), README.indexOf('- **Amounts.**'));
    for (const c of Object.values(FAULT_CASES).flat()) expect(errors, c.code).toContain(`\`${c.code}\``);
  });
});
