// `paygate ops list | show` (flags: define.ts): find operations across shops with filters and paging, and explain
// one. `paygate ops watch` is watch.ts.
import { ListOperationsQuery } from '../../../contract/sandbox.js';
import type { SandboxOperationRow } from '../../../client/resources/sandbox-support.js';
import type { OpsListOptions, OpsShowOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { opsShowView } from '../../ops-show-view.js';
import { show as showCall } from '../../output.js';
import { checkQuery, connectSupport, filtersOf, flagsLine, type OperationFilters } from '../../support-query.js';
import { csvRows, opsPageView } from '../../support-views.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Page size of `--all` without --limit: the most the sandbox gives in one page. */
const ALL_PAGE = 1000;

/** The command for the page after `cursor`, with the same filters. */
function nextCommand(filters: OperationFilters, options: OpsListOptions, cursor: string): string {
  const parts = [
    'paygate ops list',
    flagsLine(filters),
    options.limit !== undefined ? `--limit ${options.limit}` : '',
    options.json ? '--json' : '',
    options.csv ? '--csv' : '',
    `--cursor ${cursor}`,
  ];
  return parts.filter(Boolean).join(' ');
}

/** CSV text for Output.print, which adds the last line's "\n" itself: every record then ends in CRLF. */
const csvText = (rows: readonly SandboxOperationRow[], header: boolean): string =>
  csvRows(rows, header).replace(/\n$/, '');

export async function list(options: OpsListOptions, deps: CommandDeps): Promise<void> {
  if (options.json && options.csv) throw new UsageError('pass either --json or --csv, not both');
  const filters = filtersOf(options);
  checkQuery(ListOperationsQuery, {
    ...filters,
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.cursor !== undefined ? { starting_after: options.cursor } : {}),
  });
  const { client } = await connectSupport(deps);
  if (options.all) return listAll(options, filters, deps, client);
  const query = { ...filters, limit: options.limit, starting_after: options.cursor };
  const { data, response } = await deps.output.spin('Listing operations…', () =>
    client.sandbox.operations.list(query).withResponse(),
  );
  const next = data.has_more && data.next_cursor ? nextCommand(filters, options, data.next_cursor) : undefined;
  if (options.json) deps.output.json(response.body);
  else if (options.csv) {
    deps.output.print(csvText(data.operations, true));
    if (next) deps.output.note(`more: ${next}`);
  } else deps.output.print(opsPageView(data, next));
}

/** `--all`: every page from --cursor (or the newest); CSV is printed page by page, the rest once at the end. */
async function listAll(
  options: OpsListOptions,
  filters: OperationFilters,
  deps: CommandDeps,
  client: Awaited<ReturnType<typeof connectSupport>>['client'],
): Promise<void> {
  const rows: SandboxOperationRow[] = [];
  let cursor = options.cursor;
  let printed = 0;
  for (let page = 1; ; page++) {
    const query = { ...filters, limit: options.limit ?? ALL_PAGE, starting_after: cursor };
    const data = await deps.output.spin(`Listing operations… (page ${page}, ${rows.length + printed} so far)`, () =>
      client.sandbox.operations.list(query),
    );
    if (options.csv) {
      if (data.operations.length > 0 || page === 1) deps.output.print(csvText(data.operations, page === 1));
      printed += data.operations.length;
    } else rows.push(...data.operations);
    if (!data.has_more || !data.next_cursor) break;
    cursor = data.next_cursor;
  }
  if (options.csv) return;
  if (options.json) deps.output.json({ total: rows.length, operations: rows, has_more: false, next_cursor: null });
  else deps.output.print(opsPageView({ operations: rows, total: rows.length, has_more: false }, undefined));
}

export async function show(options: OpsShowOptions, deps: CommandDeps): Promise<void> {
  if (options.ref !== undefined && options.merchantOperationId !== undefined) {
    throw new UsageError('pass either <operation_id | merchant_operation_id> or --merchant-operation-id, not both');
  }
  const given = options.merchantOperationId ?? options.ref;
  if (given === undefined || given === '') {
    throw new UsageError(
      'missing <operation_id | merchant_operation_id>',
      'find it with `paygate ops list --client-id <id>` (or other filters)',
    );
  }
  const ref =
    options.merchantOperationId === undefined && UUID.test(given)
      ? { operation_id: given }
      : { merchant_operation_id: given };
  const { client } = await connectSupport(deps);
  await showCall(
    deps.output,
    options.json,
    'Reading the operation…',
    () => client.sandbox.operations.details(ref, { shop: options.shop }),
    opsShowView,
  );
}
