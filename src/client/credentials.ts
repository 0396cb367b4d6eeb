// Which credential a request carries (spec §5; the row's `auth` in the contract's tables): the API key, the sandbox's
// admin token, either for a support read, or none. Checked before anything is sent, so a missing one is a clear
// PaygateError rather than a 401 from the server.
import { PaygateError } from './errors.js';
import type { ClientRoute } from './wire.js';

export interface Secrets {
  readonly apiKey: string | undefined;
  readonly adminToken: string | undefined;
}

/** Throws before sending when the route's credential was not configured. */
export function checkCredentials(e: ClientRoute, label: string, { apiKey, adminToken }: Secrets): void {
  if (e.auth === 'key' && apiKey === undefined) {
    throw new PaygateError(
      `${label} needs an API key: pass { apiKey } to new Paygate() (only the health probes and the sandbox's admin controls work without one)`,
    );
  }
  if (e.auth === 'admin' && adminToken === undefined) {
    throw new PaygateError(
      `${label} needs the sandbox admin token: pass { adminToken } to new Paygate() (the CLI reads PAYGATE_ADMIN_TOKEN; paygate sandbox start prints the token)`,
    );
  }
  if (e.auth === 'support' && adminToken === undefined && apiKey === undefined) {
    throw new PaygateError(
      `${label} needs the sandbox admin token (every shop) or an API key (its shop): pass { adminToken } or { apiKey } to new Paygate()`,
    );
  }
}

/** The credential headers of a request to `e`. */
export function credentialHeaders(e: ClientRoute, { apiKey, adminToken }: Secrets): Record<string, string> {
  if (e.auth === 'key' && apiKey !== undefined) return { 'x-api-key': apiKey };
  if (e.auth === 'admin' && adminToken !== undefined) return { 'x-admin-token': adminToken };
  // A support read: the admin token sees every shop; without one, the key sees its shop.
  if (e.auth === 'support') {
    if (adminToken !== undefined) return { 'x-admin-token': adminToken };
    if (apiKey !== undefined) return { 'x-api-key': apiKey };
  }
  return {};
}
