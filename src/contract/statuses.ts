// Every status a route of either endpoint table can answer: the row's own (`errors`, what its handler decides) and
// those every route of its kind answers (a wrong method, a missing credential, a body that is not acceptable JSON, a
// store that cannot write or a standby process, a busy stream). The OpenAPI document declares all of them on each operation
// (openapi/paths.ts); test/contract/answers.test.ts walks the server and fails on a status not declared.
import type { z } from 'zod';
import { successStatus, type EndpointRow } from './endpoint-row.js';

/** A row as the tables hold it: a JSON body, a multipart form, or server-sent events. */
export type AnsweringRow = EndpointRow & { readonly multipart?: z.ZodType; readonly stream?: true };

/** The spec's two 401 messages (§5, §7), verbatim: the sandbox answers exactly these. */
export const API_KEY_401 = {
  missing: { code: 'missing_api_key', message: 'x-api-key header is required' },
  invalid: { code: 'invalid_api_key', message: 'invalid api key' },
} as const;

/** The sandbox's own 401s of the admin token. */
export const ADMIN_TOKEN_401 = {
  missing: {
    code: 'missing_admin_token',
    message: 'x-admin-token header is required for this sandbox control (printed by paygate sandbox start)',
  },
  invalid: { code: 'invalid_admin_token', message: 'invalid admin token' },
} as const;

/**
 * The error statuses `row` can answer, ascending:
 * - its own `errors`;
 * - 405 (with Allow): another method on its path — every path of both tables (the request never reaches a route);
 * - 401 when it takes a credential;
 * - 400, 413 and 415 when it reads a body (not JSON, or not multipart, is 415; over the limit 413; unparsable 400);
 * - 400 when it reads a query or path parameter;
 * - 503 on every route: a store that could not write answers 503 store_unavailable, and a standby process of a
 *   PostgreSQL store answers every request but /livez and /healthz 503 `standby` (cli/commands/sandbox/standby.ts);
 * - 429 for a stream of server-sent events: too many streams open.
 */
export function answeredErrors(row: AnsweringRow): number[] {
  const out = new Set<number>(row.errors);
  out.add(405);
  if (row.auth !== 'none') out.add(401);
  if (row.body || row.multipart) for (const s of [400, 413, 415]) out.add(s);
  if (row.query || row.params) out.add(400);
  out.add(503);
  if (row.stream) out.add(429);
  out.delete(successStatus(row));
  return [...out].sort((a, b) => a - b);
}
