// Against a running sandbox, the scenario's webhook receiver listens on 127.0.0.1 and is registered (control
// `webhooks.add`) for every shop the scenario acts as; the endpoints are removed again when the scenario ends.
import type { Scenario } from './format.js';
import { callById } from './http.js';
import type { Target } from './target.js';

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
    async close() {
      for (const a of added) await callById(target, 'webhooks.remove', { id: a.id }, a.shop).catch(() => undefined);
      await target.close();
    },
  };
}
