// What the sandbox's dashboard shows, by address: the page of each section (a section not listed shows where the CLI
// has it), and the other routes of signed-in sessions (paths under /dashboard). The proxy's are its own
// (src/proxy/dashboard.ts).
import { dashboardEvents } from './events.js';
import { operationAction, operationPage } from './operation.js';
import { operationsPage } from './operations.js';
import type { PageHandler } from './request.js';
import { balancesPage } from './pages/balances.js';
import { advanceClock, clockPage } from './pages/clock.js';
import { poolPage } from './pages/pool.js';
import { requestEvents, requestsPage } from './pages/requests.js';
import { redeliver, webhooksPage } from './pages/webhooks.js';
import { workspaceAction, workspacesPage } from './pages/workspaces.js';
import type { SectionId } from './sections.js';

export const SECTION_PAGES: Partial<Record<SectionId, PageHandler>> = {
  operations: operationsPage,
  balances: balancesPage,
  webhooks: (req) => webhooksPage(req),
  requests: requestsPage,
  clock: (req) => clockPage(req),
  pool: poolPage,
  workspaces: (req) => workspacesPage(req),
};

export const PAGE_ROUTES: ReadonlyArray<{ method: 'GET' | 'POST'; path: string; handler: PageHandler }> = [
  { method: 'GET', path: '/events', handler: dashboardEvents },
  { method: 'GET', path: '/operations/:id', handler: (req) => operationPage(req) },
  { method: 'POST', path: '/operations/:id', handler: operationAction },
  { method: 'GET', path: '/requests/events', handler: requestEvents },
  { method: 'POST', path: '/webhooks', handler: redeliver },
  { method: 'POST', path: '/clock', handler: advanceClock },
  { method: 'POST', path: '/workspaces', handler: workspaceAction },
];
