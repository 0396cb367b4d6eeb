// What the dashboard shows, by address: the page of each section (a section not listed shows where the CLI has it),
// and the other routes of signed-in sessions (paths under /dashboard).
import { dashboardEvents } from './events.js';
import { operationAction, operationPage } from './operation.js';
import { operationsPage } from './operations.js';
import type { PageHandler } from './request.js';
import type { SectionId } from './sections.js';

export const SECTION_PAGES: Partial<Record<SectionId, PageHandler>> = {
  operations: operationsPage,
};

export const PAGE_ROUTES: ReadonlyArray<{ method: 'GET' | 'POST'; path: string; handler: PageHandler }> = [
  { method: 'GET', path: '/events', handler: dashboardEvents },
  { method: 'GET', path: '/operations/:id', handler: (req) => operationPage(req) },
  { method: 'POST', path: '/operations/:id', handler: operationAction },
];
