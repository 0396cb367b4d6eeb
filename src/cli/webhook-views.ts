// Human views of the sandbox's webhook controls (`paygate sandbox webhooks …`) and of the events `paygate webhooks
// listen` receives. A full `whsec_` secret is shown only where the sandbox shows it once (add, rotate-secret);
// everywhere else it is masked to its last 4 characters.
import type {
  SandboxWebhookCreated,
  SandboxWebhookDeleted,
  SandboxWebhookDelivery,
  SandboxWebhookEndpoint,
  SandboxWebhookRedelivered,
  SandboxWebhookRotated,
} from '../client/index.js';
import { out } from './colors.js';
import { dim, keyValue, statusCell, table, type Cell } from './render.js';

/** `whsec_…abcd`: the last 4 characters of a webhook secret (the sandbox's own masking, applied again to be sure). */
export function maskWebhookSecret(secret: string): string {
  if (secret.startsWith('whsec_…')) return secret;
  return secret.length >= 12 ? `whsec_…${secret.slice(-4)}` : 'whsec_…';
}

/** The secret in full, marked as shown once. */
function shownOnce(secret: string): Cell {
  return {
    text: `${secret}  (shown once)`,
    style: (t) => t.replace(secret, out.yellow.bold(secret)).replace('(shown once)', out.bold('(shown once)')),
  };
}

export function webhookListView(webhooks: readonly SandboxWebhookEndpoint[]): string {
  if (webhooks.length === 0)
    return `${out.dim('no webhook endpoints')}\n\nAdd one with \`paygate sandbox webhooks add <url>\`.`;
  return table(
    ['id', 'url', 'secret', 'created_at', 'previous_secret_expires_at'],
    webhooks.map((w): Cell[] => [
      w.id,
      w.url,
      maskWebhookSecret(w.secret),
      w.created_at,
      w.previous_secret_expires_at ?? dim('—'),
    ]),
  );
}

export function webhookCreatedView(w: SandboxWebhookCreated): string {
  const kv = keyValue([
    ['id', w.id],
    ['url', w.url],
    ['created_at', w.created_at],
    ['secret', shownOnce(w.secret)],
  ]);
  return `${kv}\n\n${out.bold('This secret is shown once')} (lists show its last 4 characters): verify deliveries with it, e.g.\n  paygate webhooks listen --secret <secret>`;
}

export function webhookRotatedView(w: SandboxWebhookRotated): string {
  const kv = keyValue([
    ['id', w.id],
    ['url', w.url],
    ['created_at', w.created_at],
    ['secret', shownOnce(w.secret)],
    ['previous_secret_expires_at', w.previous_secret_expires_at],
  ]);
  return `${kv}\n\n${out.bold('The new secret is shown once.')} Until previous_secret_expires_at (sandbox time) each delivery is signed with both secrets.`;
}

export function webhookDeletedView(res: SandboxWebhookDeleted): string {
  return `${out.green('deleted')} webhook endpoint ${res.id}: it gets no new deliveries; its pending ones are marked failed (endpoint_deleted)`;
}

function lastAttempt(d: SandboxWebhookDelivery): Cell {
  const a = d.attempts.at(-1);
  if (!a) return dim(d.error ?? '—');
  if (a.status_code !== undefined) {
    const ok = a.status_code >= 200 && a.status_code < 300;
    const text = `${a.status_code} (${a.duration_ms} ms)`;
    return { text, style: (t) => (ok ? out.green(t) : out.red(t)) };
  }
  const text = `${a.error ?? 'error'} (${a.duration_ms} ms)`;
  return { text, style: (t) => out.red(t) };
}

/** succeeded green, failed red, pending yellow. */
function deliveryStatus(s: string): Cell {
  const paint = s === 'succeeded' ? out.green : s === 'failed' ? out.red : out.yellow;
  return { text: s, style: (t) => t.replace(s, paint(s)) };
}

/** Deliveries, newest first; `next` is the command that lists the next page, when there is one. */
export function deliveriesView(deliveries: readonly SandboxWebhookDelivery[], next?: string): string {
  if (deliveries.length === 0) return out.dim('no deliveries');
  const rows = table(
    ['event_id', 'event_type', 'endpoint_id', 'status', 'attempts', 'last_attempt', 'next_attempt_at'],
    deliveries.map((d): Cell[] => [
      d.event_id,
      d.event_type,
      d.endpoint_id,
      deliveryStatus(d.status),
      String(d.attempts.length),
      lastAttempt(d),
      d.next_attempt_at ?? dim('—'),
    ]),
  );
  return next === undefined
    ? rows
    : `${rows}\n\n${out.dim(`${deliveries.length} shown; older ones:`)} ${next}  ${out.dim('(or --all)')}`;
}

export function redeliveredView(res: SandboxWebhookRedelivered): string {
  const head =
    res.scheduled === 0
      ? out.dim('nothing to redeliver')
      : `${out.green(`scheduled ${res.scheduled}`)} ${res.scheduled === 1 ? 'delivery' : 'deliveries'} again, at once`;
  return res.scheduled === 0 ? head : `${head}\n\n${deliveriesView(res.deliveries)}`;
}

// `paygate webhooks listen`

export interface ReceivedEvent {
  received_at: string;
  /** true / false after a check against --secret; null when no secret was given. */
  verified: boolean | null;
  /** Why verification failed. */
  error?: string;
  /** The parsed body (null when it is not JSON). */
  event: unknown;
  /** The raw body, when it is not JSON. */
  body?: string;
}

export interface ForwardResult {
  url: string;
  status?: number;
  error?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One received webhook on one line: time, event type, operation id, status, amounts, and the verification mark. */
export function receivedView(r: ReceivedEvent, headers: { id?: string | undefined }): string {
  const ev = (r.event ?? {}) as { id?: unknown; type?: unknown; data?: { operation?: Record<string, unknown> } };
  const op = ev.data?.operation ?? {};
  const currency = str(op.currency) ?? '';
  const parts: string[] = [out.dim(r.received_at)];
  const mark =
    r.verified === true
      ? out.green('✓ verified')
      : r.verified === false
        ? out.red.bold('✗ SIGNATURE INVALID')
        : out.dim('unverified (no --secret)');
  parts.push(mark);
  parts.push(out.bold(str(ev.type) ?? (r.event === null ? 'not JSON' : 'unknown event')));
  const opId = str(op.operation_id);
  if (opId) parts.push(opId);
  const st = str(op.status);
  if (st) parts.push(`status ${statusWord(st)}`);
  const expected = str(op.expected_amount);
  const actual = str(op.actual_amount);
  if (expected !== undefined) parts.push(`expected ${expected} ${currency}`.trimEnd());
  if (actual !== undefined) parts.push(`actual ${actual} ${currency}`.trimEnd());
  const eventId = str(ev.id) ?? headers.id;
  if (eventId) parts.push(out.dim(eventId));
  let line = parts.join('  ');
  if (r.verified === false && r.error) line += `\n  ${out.red(r.error)}`;
  return line;
}

function statusWord(s: string): string {
  const c = statusCell(s);
  return typeof c === 'object' && 'text' in c && c.style ? c.style(c.text) : s;
}

export function forwardView(f: ForwardResult): string {
  if (f.status !== undefined) {
    const ok = f.status >= 200 && f.status < 300;
    return `  → forwarded to ${f.url}: ${ok ? out.green(String(f.status)) : out.red(String(f.status))}`;
  }
  return `  → forwarded to ${f.url}: ${out.red(f.error ?? 'failed')}`;
}
