// The proxy's conformance violations on the dashboard: the Violations page (every violation the proxy saw, newest
// first, each with its rule, spec section, endpoint, what was wrong and the operation's link; live, as the
// Operations page is, since a violation seen on an operation is a change of it) and the panel of one operation's.
import { esc } from '../pages/i18n.js';
import { answer } from './forms.js';
import { moment, operationHref } from './format.js';
import { DASH_MESSAGES, dt } from './messages.js';
import { stackTable, section } from './op-sections.js';
import type { DashRequest } from './request.js';
import type { ViolationRow } from './source.js';

/** Violations on the page (the newest). */
export const VIOLATIONS_SHOWN = 500;

function rows(req: DashRequest, list: readonly ViolationRow[], withOperation: boolean): string[][] {
  return list.map((v) => [
    v.at ? moment(req.lang, v.at) : '—',
    `<span class="mono" data-rule="${esc(v.rule)}">${esc(v.rule)}</span>`,
    esc(v.section),
    `<span class="mono">${esc(v.endpoint)}</span>`,
    esc(v.message),
    ...(withOperation
      ? [
          v.operation_id
            ? `<a class="mono" href="${esc(operationHref(req, v.operation_id))}">${esc(v.operation_id)}</a>`
            : '—',
        ]
      : []),
    `#${v.exchange}`,
  ]);
}

const COLS = ['col.seen', 'col.rule', 'col.section', 'col.endpoint', 'col.message'] as const;

/** The panel of one operation's violations (on the proxy). */
export function violationsOf(req: DashRequest, operationId: string): string {
  const list = req.d.source.violations(VIOLATIONS_SHOWN, operationId).rows;
  const body = list.length
    ? stackTable(req, dt(req.lang, 'op.violations'), [...COLS, 'col.exchange'], rows(req, list, false), 'violations')
    : `<p>${dt(req.lang, 'op.violations.none')}</p>`;
  return section('h-violations', dt(req.lang, 'op.violations'), body);
}

/** GET <dashboard>/violations. */
export function violationsPage(req: DashRequest): string {
  const { lang } = req;
  const title = DASH_MESSAGES[lang]['viol.title'];
  const { rows: shown, total } = req.d.source.violations(VIOLATIONS_SHOWN);
  const count = dt(lang, 'viol.total', { count: String(total), shown: String(shown.length) });
  const table = shown.length
    ? `<p class="muted">${count}</p>${stackTable(req, title, [...COLS, 'col.operation', 'col.exchange'], rows(req, shown, true), 'violations')}`
    : `<p>${dt(lang, 'viol.none')}</p>`;
  const main = `<h1>${esc(title)}</h1><p class="muted">${dt(lang, 'viol.lead')}</p><section id="viol-results" data-swap aria-live="off">${table}</section>`;
  return answer(req, 200, { title, main, section: 'violations', live: `${req.base}/events` });
}
