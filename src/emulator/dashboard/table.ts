// What the dashboard shows, by address: the page of each section (a section not listed shows where the CLI has it),
// and the other routes of signed-in sessions (paths under /dashboard).
import type { PageHandler } from './request.js';
import type { SectionId } from './sections.js';

export const SECTION_PAGES: Partial<Record<SectionId, PageHandler>> = {};

export const PAGE_ROUTES: ReadonlyArray<{ method: 'GET' | 'POST'; path: string; handler: PageHandler }> = [];
