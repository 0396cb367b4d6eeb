// The Workspaces page (the server admin's; the navigation offers it to the admin only, sections.ts): the server's
// workspaces (workspaces.list), Create (workspaces.create with an optional id) and Delete (workspaces.delete), the
// same controls as `paygate workspace list/create/delete`. A new workspace's admin token and keys exist in the
// create answer only: they are shown once on the answer to the form (never in a URL, no-store, no referrer), as the
// CLI prints them once. In a workspace's own dashboard the controls refuse (workspace_forbidden) and the page says so.
import type { CreatedWorkspace, WorkspaceList } from '../../../contract/workspaces.js';
import type { z } from 'zod';
import { esc } from '../../pages/i18n.js';
import { formAllowed, readForm, seeOther } from '../forms.js';
import { moment } from '../format.js';
import { notFoundPage } from '../frame.js';
import { csrfField } from '../layout.js';
import type { DashRequest } from '../request.js';
import { refused } from '../sign-in.js';
import { cards, doneNotice, panel, refusedNotice, render, tryInvoke, type Refusal } from './common.js';
import { PAGE_MESSAGES, pt } from './messages.js';

const deleteForm = (req: DashRequest, id: string) =>
  `<form method="post" action="${esc(`${req.base}/workspaces`)}">${csrfField(req)}<input type="hidden" name="action" value="delete"><input type="hidden" name="id" value="${esc(id)}"><button type="submit" class="danger" data-do="delete">${pt(req.lang, 'ws.delete', { id })}</button></form>`;

function createForm(req: DashRequest): string {
  const { lang } = req;
  return `<form method="post" action="${esc(`${req.base}/workspaces`)}" class="inline-form">${csrfField(req)}<input type="hidden" name="action" value="create"><div><label for="ws-id">${pt(lang, 'ws.id')}</label><input id="ws-id" name="id" autocomplete="off" spellcheck="false" aria-describedby="ws-id-hint"><p id="ws-id-hint" class="muted hint">${pt(lang, 'ws.id.hint')}</p></div><button type="submit" data-do="create">${pt(lang, 'ws.create.button')}</button></form>`;
}

function createdPanel(req: DashRequest, c: CreatedWorkspace): string {
  const { lang } = req;
  const rows = [
    [
      esc(PAGE_MESSAGES[lang]['col.token']),
      `<code class="mono secret" data-created-secret>${esc(c.admin_token)}</code>`,
    ],
    ...Object.entries(c.keys).map(([shop, key]) => [
      `${esc(PAGE_MESSAGES[lang]['col.key'])} ${esc(shop)}`,
      `<code class="mono secret" data-created-secret>${esc(key)}</code>`,
    ]),
  ];
  const list = `<dl class="fields">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
  return `<div class="notice ok" role="status" data-created="${esc(c.id)}"><p>${pt(lang, 'ws.created', { id: c.id })}</p>${list}</div>`;
}

/** GET <dashboard>/workspaces; after a refused action the refusal, after a create the new workspace's secrets. */
export async function workspacesPage(req: DashRequest, refusal?: Refusal, created?: CreatedWorkspace): Promise<string> {
  const { lang } = req;
  if (req.shop !== undefined) return notFoundPage(req);
  const title = PAGE_MESSAGES[lang]['ws.title'];
  const l = await tryInvoke<z.infer<typeof WorkspaceList>>(req, 'workspaces.list', { shopId: '' });
  const deleted = req.event.url.searchParams.get('deleted');
  const notice = refusal
    ? refusedNotice(req, refusal.message)
    : created
      ? createdPanel(req, created)
      : doneNotice(req, deleted ? PAGE_MESSAGES[lang]['ws.deleted'].replace('{id}', deleted) : undefined);
  let body: string;
  if (!l.ok) body = refusedNotice(req, l.refusal.message);
  else {
    const rows = l.value.workspaces.map((w) => [
      `<span class="mono" data-workspace="${esc(w.id)}">${esc(w.id)}</span>`,
      `<a class="mono" href="${esc(`${w.base_url}/dashboard`)}">${esc(w.base_url)}</a>`,
      moment(lang, w.created_at),
      esc(w.shops.map((s) => s.id).join(', ')),
      `${w.operations} / ${w.limits.operations}`,
      deleteForm(req, w.id),
    ]);
    const list = rows.length
      ? cards(
          req,
          title,
          ['col.id', 'col.base', 'col.created', 'col.shops', 'col.ops', 'col.action'],
          rows,
          'workspaces',
        )
      : `<p>${pt(lang, 'ws.none')}</p>`;
    body = `${panel('h-ws-list', title, list)}${panel('h-ws-create', pt(lang, 'ws.create'), createForm(req))}`;
  }
  const main = `<h1>${esc(title)}</h1><p class="muted">${pt(lang, 'ws.lead')}</p>${notice}${body}`;
  const status = refusal?.status ?? (created ? 201 : 200);
  return render(req, { title, main, section: 'workspaces' }, status);
}

/** POST <dashboard>/workspaces: create (the answer shows its secrets once) or delete (a 303 back). */
export async function workspaceAction(req: DashRequest): Promise<string> {
  if (req.shop !== undefined) return notFoundPage(req);
  const form = await readForm(req.event);
  if (!formAllowed(req, form)) return refused(req);
  if (form!.get('action') === 'create') {
    const id = (form!.get('id') ?? '').trim();
    const r = await tryInvoke<CreatedWorkspace>(req, 'workspaces.create', { shopId: '', body: id ? { id } : {} });
    return r.ok ? workspacesPage(req, undefined, r.value) : workspacesPage(req, r.refusal);
  }
  if (form!.get('action') !== 'delete') return workspacesPage(req, { status: 400, message: 'no such action' });
  const id = form!.get('id') ?? '';
  const r = await tryInvoke(req, 'workspaces.delete', { shopId: '', params: { id } });
  if (!r.ok) return workspacesPage(req, r.refusal);
  return seeOther(req.event, `${req.base}/workspaces?${new URLSearchParams({ deleted: id }).toString()}`);
}
