// Sandbox magic values: tags appended to client_id with "+" force an outcome per request, like test card numbers.
// Example: client_id "alice+receipt" routes the payment as if the provider required a receipt.

export const MAGIC_TAGS = {
  reject: 'every provider declines: the operation is rejected',
  slow: 'the provider takes 10 s (sandbox time) to accept; the create waits for it',
  timeout: 'the provider takes 20 s, longer than the 15 s wait: the create is rejected after 15 s',
  receipt: 'the route requires receipt confirmation: the payment starts awaiting_confirmation',
  expire: 'the provider reports a 15-minute expiry window (expires_at)',
  fail: 'a payout fails at settlement (rejected, reserve returned)',
} as const;

export type MagicTag = keyof typeof MAGIC_TAGS;

export const SLOW_ACCEPTANCE_MS = 10_000;
export const TIMEOUT_ACCEPTANCE_MS = 20_000;
export const MAGIC_EXPIRY_MS = 15 * 60_000;

/** Tags found in a client_id ("alice+receipt+slow" → ["receipt", "slow"]); unknown tags are ignored. */
export function magicTags(clientId: string): MagicTag[] {
  if (!clientId.includes('+')) return [];
  const parts = clientId.split('+').slice(1);
  return parts.filter((p): p is MagicTag => Object.hasOwn(MAGIC_TAGS, p));
}
