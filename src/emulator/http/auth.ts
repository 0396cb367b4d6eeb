// Authentication of a route (spec §5): the shop's X-API-Key, with its endpoint groups, or the sandbox's
// X-Admin-Token. Runs before the handler; a failure is a 401 (403 for a key limited to other groups).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import type { EndpointScope } from '../../contract/endpoints.js';
import type { Credential } from '../../contract/endpoint-row.js';
import type { AppContext } from '../context.js';
import { ApiError } from './errors.js';
import { header } from './headers.js';

function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

const SCOPE_TEXT: Record<EndpointScope, string> = { links: 'payment link', amounts: 'availability and recommendation' };

/** The 401 of a credential missing or not valid here (also what an unknown workspace answers: workspaces/unknown.ts). */
export function credentialError(kind: 'admin' | 'key', why: 'missing' | 'invalid'): ApiError {
  if (kind === 'admin') {
    return why === 'missing'
      ? new ApiError(
          'missing_admin_token',
          'x-admin-token header is required for this sandbox control (printed by paygate sandbox start)',
        )
      : new ApiError('invalid_admin_token', 'invalid admin token');
  }
  return why === 'missing'
    ? new ApiError('missing_api_key', 'x-api-key header is required')
    : new ApiError('invalid_api_key', 'invalid api key');
}

/**
 * The shop the request acts for ('' for admin and open routes), or an ApiError. A `support` route takes the admin
 * token when one is sent (every shop: '') and the shop's key otherwise.
 */
export function authenticate(
  event: H3Event,
  credential: Credential,
  scope: EndpointScope | undefined,
  ctx: AppContext,
): string {
  if (credential === 'support') credential = header(event, 'x-admin-token') ? 'admin' : 'key';
  if (credential === 'admin') {
    const token = header(event, 'x-admin-token');
    if (!token || !safeEqual(token, ctx.adminToken)) throw credentialError('admin', token ? 'invalid' : 'missing');
    return '';
  }
  if (credential === 'none') return '';
  const a = ctx.service.authenticate(header(event, 'x-api-key'));
  if (!a.ok) throw credentialError('key', a.reason === 'missing' ? 'missing' : 'invalid');
  if (scope && a.scopes && !a.scopes.includes(scope)) {
    throw new ApiError(
      'key_not_authorized',
      `this API key is not authorized for ${SCOPE_TEXT[scope]} endpoints; issue a key with the ${scope} scope`,
    );
  }
  return a.shopId;
}
