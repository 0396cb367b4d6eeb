// What the Balances, Webhooks, Requests, Clock, Pool and Workspaces pages share: a panel, a table that stacks into
// cards on a phone, the notices of a done or refused action, the shops a session may see, and the one way a page's
// form acts — its own origin and the session's CSRF token (the frame's rule, forms.ts), then the same control as the
// CLI (invoke.ts); a success is a 303 back to the page saying what was done (`?done=`), a refusal the page again
// with the control's status and message.
import type { ControlId } from '../../../contract/controls.js';
import type { EndpointId } from '../../../contract/endpoints.js';
import { esc } from '../../pages/i18n.js';
import { answer, formAllowed, readForm, seeOther } from '../forms.js';
import { invoke, refusalOf, type Invocation } from '../invoke.js';
import type { DashRequest } from '../request.js';
import { sandboxOf } from '../source.js';
import type { SectionId } from '../sections.js';
import { refused } from '../sign-in.js';
import { PAGE_MESSAGES, pt, type PageKey } from './messages.js';

export const panel = (id: string, title: string, body: string) =>
  `<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;

/** A table that stacks into cards on a phone; `rows` are HTML cells. */
export function cards(req: DashRequest, caption: string, cols: PageKey[], rows: string[][], cls = ''): string {
  const L = (k: PageKey) => esc(PAGE_MESSAGES[req.lang][k]);
  const head = cols.map((c) => `<th scope="col">${L(c)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((cell, i) => `<td data-label="${L(cols[i]!)}">${cell}</td>`).join('')}</tr>`)
    .join('');
  return `<table class="stack ${cls}"><caption class="vh">${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The shops the session may see: its own, or every shop of the sandbox for the admin. */
export function visibleShops(req: DashRequest): string[] {
  const all = [...req.d.source.shops()];
  return req.shop === undefined ? all : all.filter((s) => s === req.shop);
}

/** A notice of what the session's key may not call. */
export const adminOnly = (req: DashRequest, control: string) =>
  `<p class="notice" role="status">${pt(req.lang, 'admin.only', { control })}</p>`;

export const refusedNotice = (req: DashRequest, message: string) =>
  `<p class="notice" role="alert">${pt(req.lang, 'refused', { message })}</p>`;

/** The notice of `?done=` after an action's 303 (its text given by the page). */
export function doneNotice(req: DashRequest, what: string | undefined): string {
  return what ? `<p class="notice ok" role="status">${pt(req.lang, 'done', { what })}</p>` : '';
}

export interface PageAnswer {
  title: string;
  main: string;
  section: SectionId;
  live?: string;
}

/** Render a page: its status and, after a refused action, the refusal at its top. */
export function render(req: DashRequest, page: PageAnswer, status = 200): string {
  return answer(req, status, page);
}

/** A control's refusal as a page shows it; `form` is the refused form (a page may fill its fields in again). */
export type Refusal = { status: number; message: string; form?: URLSearchParams };

/** Run a control as the session may; its answer, or the refusal (code: message) when the control refuses. */
export async function tryInvoke<T>(
  req: DashRequest,
  id: ControlId | EndpointId,
  inv: Invocation,
): Promise<{ ok: true; value: T } | { ok: false; refusal: Refusal }> {
  try {
    return { ok: true, value: await invoke<T>(sandboxOf(req), id, inv) };
  } catch (e) {
    const r = refusalOf(e);
    if (!r) throw e;
    req.event.context.errorCode = r.code;
    return { ok: false, refusal: { status: r.status, message: `${r.code}: ${r.message}` } };
  }
}

/** What a page's form does: the control to call, or a refusal of the form itself; `done` is the 303's `?done=`. */
export type FormCall =
  { id: ControlId | EndpointId; inv: Invocation; done: Record<string, string> } | { refusal: Refusal };

/**
 * POST of a page's form: the CSRF rules first (403, nothing done), then the control. A success is a 303 to `path`
 * with `done`; a refusal renders the page (`show`) with it.
 */
export async function actOn(
  req: DashRequest,
  path: string,
  callOf: (form: URLSearchParams) => FormCall,
  show: (req: DashRequest, refusal?: Refusal) => Promise<string>,
): Promise<string> {
  const form = await readForm(req.event);
  if (!formAllowed(req, form)) return refused(req);
  const call = callOf(form!);
  if ('refusal' in call) return show(req, { ...call.refusal, form: form! });
  const r = await tryInvoke(req, call.id, call.inv);
  if (!r.ok) return show(req, { ...r.refusal, form: form! });
  return seeOther(req.event, `${req.base}${path}?${new URLSearchParams(call.done).toString()}`);
}
