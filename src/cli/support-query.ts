// What the support commands (`paygate ops …`, `paygate logs tail`) share: the connection (the admin token when one
// is configured, else the API key), and their filter flags checked with the contract's own query schema — so a bad
// value is a usage error naming the flag (exit 2), with the same rule the sandbox applies.
import type { z } from 'zod';
import type { SandboxOperationFilters } from '../client/resources/sandbox-support.js';
import type { OpsFilterOptions } from './commands/ops/define.js';
import type { CommandDeps, ConnectedClient } from './deps.js';
import { UsageError } from './errors.js';

/** The query parameter of each flag. */
const FLAG_OF: Record<string, string> = {
  status: '--status',
  type: '--type',
  method: '--method',
  client_id: '--client-id',
  merchant_operation_id: '--merchant-operation-id',
  shop: '--shop',
  since: '--since',
  until: '--until',
  min_amount: '--min-amount',
  max_amount: '--max-amount',
  limit: '--limit',
  starting_after: '--cursor',
  id: '<operation_id>',
  path: '--path',
  backlog: '--since-start',
};

/** The listing filters as query parameters (only those given); typed as the client takes them once checkQuery passed. */
export type OperationFilters = SandboxOperationFilters;

export function filtersOf(o: OpsFilterOptions): OperationFilters {
  const all: Record<keyof OperationFilters, string | undefined> = {
    status: o.status,
    type: o.type,
    method: o.method,
    client_id: o.clientId,
    merchant_operation_id: o.merchantOperationId,
    shop: o.shop,
    since: o.since,
    until: o.until,
    min_amount: o.minAmount,
    max_amount: o.maxAmount,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as OperationFilters;
}

/** Check `query` with `schema`; the first problem becomes a usage error naming its flag. */
export function checkQuery(schema: z.ZodType, query: Record<string, unknown>): void {
  const r = schema.safeParse(query);
  if (r.success) return;
  const issue = r.error.issues[0]!;
  const key = String(issue.path[0] ?? '');
  const flag = FLAG_OF[key] ?? key;
  const value = query[key];
  throw new UsageError(
    `${flag}${value !== undefined ? ` ${JSON.stringify(String(value))}` : ''}: ${issue.message}`,
    'see --help for the accepted values',
  );
}

/** The client for a support read: the admin token (every shop) when configured, else the API key (its shop). */
export async function connectSupport(deps: CommandDeps): Promise<ConnectedClient> {
  const c = await deps.connect({ needKey: false });
  if (!c.client.hasAdminToken && !c.client.hasApiKey) {
    throw new UsageError(
      'no sandbox admin token and no API key',
      'pass --admin-token (every shop; `paygate sandbox start` prints it) or --api-key (that shop only), or set PAYGATE_ADMIN_TOKEN / PAYGATE_API_KEY',
    );
  }
  return c;
}

/** A value as the shell needs it: as is when plain, else single-quoted. */
export function shellWord(v: string): string {
  return /^[A-Za-z0-9_.,:+@%/=-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/** The command line of the flags given, for a hint (`--status rejected --client-id 'a b'`). */
export function flagsLine(filters: OperationFilters): string {
  return Object.entries(filters)
    .map(([k, v]) => `${FLAG_OF[k]} ${shellWord(String(v))}`)
    .join(' ');
}
