// Against a running sandbox, the scenario's webhook receiver listens on 127.0.0.1 and is registered (control
// `webhooks.add`) for every shop the scenario acts as; the endpoints are removed again when the scenario ends.
// A step's deliveries are settled when the sandbox lists none of them as due (control `webhooks.deliveries`).
import type { Scenario } from './format.js';
import { callById } from './http.js';
import type { Target } from './target.js';

const SETTLE_LIMIT_MS = 5000;

interface Delivery {
  endpoint_id: string;
  status: string;
  next_attempt_at: string | null;
}

/** Whether any delivery to our endpoints is due now (not yet attempted, or its retry time has come). */
async function anyDue(target: Target, added: { shop: string; id: string }[]): Promise<boolean | undefined> {
  const clock = await target.clockState();
  if (!clock) return undefined;
  for (const shop of new Set(added.map((a) => a.shop))) {
    const ours = new Set(added.filter((a) => a.shop === shop).map((a) => a.id));
    // Every page of the list (it is paged, newest first).
    for (let cursor: string | undefined; ;) {
      const res = await callById(target, 'webhooks.deliveries', { limit: 200, ...(cursor ? { cursor } : {}) }, shop);
      if (res.status !== 200) return undefined;
      const page = res.body as { deliveries?: Delivery[]; has_more?: boolean; next_cursor?: string | null };
      const due = (page.deliveries ?? []).some(
        (d) =>
          ours.has(d.endpoint_id) &&
          d.status === 'pending' &&
          d.next_attempt_at !== null &&
          Date.parse(d.next_attempt_at) <= clock.now,
      );
      if (due) return true;
      if (!page.has_more || !page.next_cursor) break;
      cursor = page.next_cursor;
    }
  }
  return false;
}

export async function registerReceiver(target: Target, s: Scenario): Promise<Target> {
  const url = await target.receiver.listen();
  const shops = new Set([target.defaultShop, ...s.steps.flatMap((st) => (st.as ? [st.as] : []))]);
  const added: { shop: string; id: string }[] = [];
  for (const shop of shops) {
    const res = await callById(target, 'webhooks.add', { url }, shop);
    const body = res.body as { id?: string; secret?: string } | undefined;
    if (res.status !== 201 || !body?.id || !body.secret) continue; // the step expecting webhooks will say none came
    target.receiver.addSecret(body.secret);
    added.push({ shop, id: body.id });
  }
  return {
    ...target,
    async settleWebhooks(enough) {
      const deadline = Date.now() + SETTLE_LIMIT_MS;
      for (;;) {
        const due = await anyDue(target, added);
        if (due === undefined) return target.settleWebhooks(enough); // the sandbox does not say: wait for quiet
        if (!due || Date.now() > deadline) return;
        await target.receiver.nextDelivery(20);
      }
    },
    async close() {
      for (const a of added) await callById(target, 'webhooks.remove', { id: a.id }, a.shop).catch(() => undefined);
      await target.close();
    },
  };
}
