// The dashboard's sections, in the navigation's order: where each lives under the dashboard's base, whether a
// shop's key may see it (Workspaces are the server admin's), and the CLI command that shows the same thing (what
// a section still to be built points to). A section's page is registered in routes.ts.
import type { DashKey } from './messages.js';

export const SECTION_IDS = ['operations', 'balances', 'webhooks', 'requests', 'clock', 'pool', 'workspaces'] as const;
/** The sandbox's sections, and `violations`: a source's own (the proxy's Violations page, violations.ts). */
export type SectionId = (typeof SECTION_IDS)[number] | 'violations';

export interface Section {
  readonly id: SectionId;
  readonly label: DashKey;
  /** Only the admin token's sessions see it. */
  readonly adminOnly: boolean;
  /** The CLI command showing the same thing. */
  readonly command: string;
}

export const SECTIONS: readonly Section[] = [
  { id: 'operations', label: 'nav.operations', adminOnly: false, command: 'paygate ops list' },
  { id: 'balances', label: 'nav.balances', adminOnly: false, command: 'paygate balances --all-shops' },
  { id: 'webhooks', label: 'nav.webhooks', adminOnly: false, command: 'paygate sandbox webhooks deliveries' },
  { id: 'requests', label: 'nav.requests', adminOnly: false, command: 'paygate logs tail' },
  { id: 'clock', label: 'nav.clock', adminOnly: false, command: 'paygate sandbox time' },
  { id: 'pool', label: 'nav.pool', adminOnly: false, command: 'paygate sandbox pool show' },
  { id: 'workspaces', label: 'nav.workspaces', adminOnly: true, command: 'paygate workspace list' },
];

export const sectionOf = (id: string, among: readonly Section[] = SECTIONS): Section | undefined =>
  among.find((s) => s.id === id);
