// The dashboard's pages that every section shares: not found (also what a shop's key gets for another shop's
// operation: nothing says whether it exists), and a section still to be built, pointing to the CLI command.
import { esc } from '../pages/i18n.js';
import { answer } from './forms.js';
import { DASH_MESSAGES, dt } from './messages.js';
import type { DashRequest } from './request.js';
import { sectionOf, type SectionId } from './sections.js';

export const NOT_FOUND = 404;

export function notFoundPage(req: DashRequest): string {
  const { lang } = req;
  const main = `<div class="panel"><h1>${dt(lang, 'notfound.title')}</h1><p>${dt(lang, 'notfound.text')}</p><p><a href="${esc(`${req.base}/operations`)}">${dt(lang, 'back.operations')}</a></p></div>`;
  return answer(req, NOT_FOUND, { title: DASH_MESSAGES[lang]['notfound.title'], main });
}

/** A section still to be built: where the CLI shows it. */
export function comingPage(req: DashRequest, section: SectionId): string {
  const s = sectionOf(section)!;
  const { lang } = req;
  const title = DASH_MESSAGES[lang][s.label];
  const main = `<div class="panel"><h1>${esc(title)}</h1><p>${dt(lang, 'coming.text', { command: s.command })}</p></div>`;
  return answer(req, 200, { title, main, section });
}
