// An operation's page: its fields as the gateway returns them (operations.show, what `paygate ops show` reads — the
// same control, the session's scope), the sandbox's record of it, the state diagram with the path it took, the
// timeline, receipts, postings, webhook deliveries and faults (op-sections.ts), and the actions the state table
// allows now (actions.ts). Live until terminal: the page listens to the operations stream for this one operation.
import { TERMINAL_STATUSES } from '../../contract/common.js';
import type { OperationDetails } from '../../contract/sandbox.js';
import { esc } from '../pages/i18n.js';
import { actionsPanel, actOnOperation, type ActionOutcome } from './actions.js';
import { movesList, stateDiagram } from './diagram.js';
import { answer } from './forms.js';
import { moment, statusBadge } from './format.js';
import { notFoundPage } from './frame.js';
import { DASH_MESSAGES, dt, type DashKey } from './messages.js';
import { faults, postings, receipts, section, timeline, timelineItems, webhooks } from './op-sections.js';
import type { DashRequest } from './request.js';
import type { OperationPanel } from './source.js';
import { violationsOf, VIOLATIONS_SHOWN } from './violations.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function value(req: DashRequest, v: unknown): string {
  if (v === null || v === undefined) return '<span class="muted">null</span>';
  if (typeof v === 'string' && TIMESTAMP.test(v))
    return `<span class="mono">${esc(v)}</span><br>${moment(req.lang, v)}`;
  if (typeof v === 'object') return `<span class="mono">${esc(JSON.stringify(v))}</span>`;
  return `<span class="mono">${esc(String(v))}</span>`;
}

function fieldList(req: DashRequest, fields: Record<string, unknown>): string {
  const rows = Object.entries(fields).map(
    ([k, v]) => `<dt class="mono">${esc(k)}</dt><dd data-field="${esc(k)}">${value(req, v)}</dd>`,
  );
  return `<dl class="fields">${rows.join('')}</dl>`;
}

async function details(req: DashRequest): Promise<OperationDetails | undefined> {
  const r = await req.d.source.show(req.shop, req.event.context.params?.id ?? '');
  if (r.ok) return r.value;
  req.event.context.errorCode = r.code;
  return undefined;
}

/** Each panel below the diagram. */
const PANELS: Record<OperationPanel, (req: DashRequest, d: OperationDetails) => string> = {
  timeline: (req, d) => {
    const seen = [...req.d.source.violations(VIOLATIONS_SHOWN, d.operation.operation_id).rows].reverse();
    return timeline(req, timelineItems(d, seen));
  },
  violations: (req, d) => violationsOf(req, d.operation.operation_id),
  receipts,
  postings,
  webhooks,
  faults,
};

/** Below the diagram: the panels the source offers (the sandbox: receipts, postings…; the proxy: violations). */
const below = (req: DashRequest, d: OperationDetails) =>
  req.d.source.operationPanels.map((panel) => PANELS[panel](req, d)).join('');

function notice(req: DashRequest, outcome: ActionOutcome | undefined): string {
  if (outcome) return `<p class="notice" role="alert">${outcome.notice}</p>`;
  const done = req.event.url.searchParams.get('done');
  const key = `act.${done}` as DashKey;
  if (!done || !(key in DASH_MESSAGES.en)) return '';
  return `<p class="notice ok" role="status">${dt(req.lang, 'act.done', { action: DASH_MESSAGES[req.lang][key] })}</p>`;
}

/** GET <dashboard>/operations/:id (and the page again after a refused action). */
export async function operationPage(req: DashRequest, outcome?: ActionOutcome): Promise<string> {
  const d = await details(req);
  if (!d) return notFoundPage(req);
  const op = d.operation;
  const { lang } = req;
  const title = dt(lang, 'op.title', { type: op.type, id: op.operation_id });
  const { receipts: _r, ...wire } = op;
  const { operation: _o, history: _h, uploads: _u, webhooks: _w, postings: _p, faults: _f, ...record } = d;
  const diagramTitle = DASH_MESSAGES[lang]['op.diagram.title'].replace('{type}', op.type);
  const path = d.history;
  const diagram = section(
    'h-diagram',
    dt(lang, 'op.diagram'),
    `${stateDiagram(op.type, path, op.status, diagramTitle, 'wide')}${stateDiagram(op.type, path, op.status, diagramTitle, 'tall')}<details><summary>${dt(lang, 'op.diagram.moves')}</summary>${movesList(op.type)}</details>`,
  );
  const head = `<h1>${title} ${statusBadge(op.status)}</h1>${notice(req, outcome)}`;
  const live = !TERMINAL_STATUSES.includes(op.status);
  const body = `<div id="op-live" data-swap><div data-row="${esc(op.operation_id)}" data-status="${esc(op.status)}" data-updated-at="${esc(d.updated_at)}" hidden></div>${head}
${req.d.source.controls ? actionsPanel(req, op) : ''}
<div class="grid2">${section('h-fields', dt(lang, 'op.fields'), fieldList(req, wire))}${section('h-record', dt(lang, req.d.source.labels.record), fieldList(req, record))}</div>
${diagram}${below(req, d)}</div>
<p><a href="${esc(`${req.base}/operations`)}">${dt(lang, 'back.operations')}</a></p>`;
  return answer(req, outcome?.status ?? 200, {
    title: `${op.type} ${op.operation_id}`,
    main: body,
    section: 'operations',
    live: live ? `${req.base}/events?id=${encodeURIComponent(op.operation_id)}` : undefined,
    liveOne: true,
  });
}

/** POST <dashboard>/operations/:id: an action (actions.ts), then this page. */
export const operationAction = (req: DashRequest) => actOnOperation(req, operationPage);
