// The rule catalogue: the validator's rules, the proxy's webhook rules and those of `paygate verify`, and the section of each id.
import { CORE_RULES } from './rules/core.js';
import { VERIFY_RULES } from './rules/verify.js';
import { WEBHOOK_RULES } from './rules/webhook.js';
import type { RuleInfo } from './types.js';

export const RULES: readonly RuleInfo[] = [...CORE_RULES, ...WEBHOOK_RULES, ...VERIFY_RULES];

const SECTIONS = new Map(RULES.map((r) => [r.id, r.section]));

/** The spec section of a rule id ('' for an id the catalogue does not hold). */
export const sectionOf = (id: string): string => SECTIONS.get(id) ?? '';

/** The catalogue as a Markdown table (docs/conformance.md embeds it between markers; `npm run docs` writes it). */
export function renderRules(): string {
  const rows = RULES.map((r) => `| \`${r.id}\` | ${r.kind} | ${r.section} | ${r.title.replace(/\|/g, '\\|')} |`);
  return ['| rule id | kind | spec | what it checks |', '|---|---|---|---|', ...rows].join('\n');
}
