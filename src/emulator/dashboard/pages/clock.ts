// The Clock page: sandbox time now, frozen or running, the pending timers and the next one due (clock.show, as
// `paygate sandbox time` shows it), and Advance by a duration in the project's one duration grammar
// (src/contract/duration.ts, checked by clock.advance's own schema) — the same control as `paygate sandbox time
// advance`. Both are admin controls: a shop's key sees the page say so, with no form.
import type { ClockState } from '../../../contract/sandbox.js';
import { DURATION_HINT } from '../../../contract/duration.js';
import { esc } from '../../pages/i18n.js';
import { moment } from '../format.js';
import { csrfField } from '../layout.js';
import type { DashRequest } from '../request.js';
import { actOn, adminOnly, doneNotice, panel, refusedNotice, render, tryInvoke, type Refusal } from './common.js';
import { PAGE_MESSAGES, pt } from './messages.js';

function stateList(req: DashRequest, c: ClockState): string {
  const { lang } = req;
  const row = (k: Parameters<typeof pt>[1], v: string, field: string) =>
    `<dt>${pt(lang, k)}</dt><dd data-clock="${field}">${v}</dd>`;
  return `<dl class="fields">${[
    row('clock.now', `<span class="mono">${esc(c.now)}</span><br>${moment(lang, c.now)}`, 'now'),
    row('clock.state', pt(lang, c.frozen ? 'clock.frozen' : 'clock.running'), c.frozen ? 'frozen' : 'running'),
    row('clock.pending', String(c.pending_timers), 'pending'),
    row(
      'clock.next',
      c.next_timer_at
        ? `<span class="mono">${esc(c.next_timer_at)}</span><br>${moment(lang, c.next_timer_at)}`
        : pt(lang, 'clock.next.none'),
      'next',
    ),
  ].join('')}</dl>`;
}

function advanceForm(req: DashRequest, by: string): string {
  const { lang } = req;
  return `<form method="post" action="${esc(`${req.base}/clock`)}" class="inline-form">${csrfField(req)}<div><label for="clock-by">${pt(lang, 'clock.by')}</label><input id="clock-by" name="by" required autocomplete="off" spellcheck="false" value="${esc(by)}" aria-describedby="clock-by-hint"><p id="clock-by-hint" class="muted hint">${pt(lang, 'clock.by.hint')}</p></div><button type="submit" data-do="advance">${pt(lang, 'clock.advance')}</button></form>`;
}

/** GET <dashboard>/clock (and the page again after a refused advance). */
export async function clockPage(req: DashRequest, refusal?: Refusal): Promise<string> {
  const title = PAGE_MESSAGES[req.lang]['clock.title'];
  let body: string;
  if (req.shop !== undefined) {
    body = adminOnly(req, 'clock.show, clock.advance');
  } else {
    const c = await tryInvoke<ClockState>(req, 'clock.show', { shopId: '' });
    const done = req.event.url.searchParams.get('advanced');
    const notice = refusal
      ? refusedNotice(req, refusal.message)
      : doneNotice(req, done ? PAGE_MESSAGES[req.lang]['clock.advanced'].replace('{by}', done) : undefined);
    body = c.ok
      ? `${notice}${panel('h-clock', pt(req.lang, 'clock.now'), stateList(req, c.value))}${panel('h-advance', pt(req.lang, 'clock.advance'), advanceForm(req, refusal?.form?.get('by') ?? ''))}`
      : refusedNotice(req, c.refusal.message);
  }
  return render(
    req,
    { title, main: `<h1>${esc(title)}</h1><div id="clock-live" data-swap>${body}</div>`, section: 'clock' },
    refusal?.status ?? 200,
  );
}

/** POST <dashboard>/clock: advance the clock (admin). */
export function advanceClock(req: DashRequest): Promise<string> {
  return actOn(
    req,
    '/clock',
    (form) => {
      const by = (form.get('by') ?? '').trim();
      if (req.shop !== undefined)
        return { refusal: { status: 403, message: 'admin_only: clock.advance needs the admin token' } };
      if (by === '') return { refusal: { status: 400, message: `validation_error: by must be ${DURATION_HINT}` } };
      return { id: 'clock.advance', inv: { shopId: '', body: { by } }, done: { advanced: by } };
    },
    clockPage,
  );
}
