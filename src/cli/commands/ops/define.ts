// `paygate ops list | show | watch`: the support staff's view of operations across shops — flags, help and typed
// options (run: run.ts, watch.ts).
import { Option, type Command } from 'commander';
import { action, example, flag, JSON_HELP, num, parseIntIn, str, type Parsed } from '../shared.js';

/** The listing filters, as given (checked by the command against the contract's listing query). */
export interface OpsFilterOptions {
  status?: string | undefined;
  type?: string | undefined;
  method?: string | undefined;
  clientId?: string | undefined;
  merchantOperationId?: string | undefined;
  /** Only this shop (the admin token; a key sees its own shop only). */
  shop?: string | undefined;
  /** Created at or after: RFC 3339 or a date. */
  since?: string | undefined;
  /** Created before: RFC 3339 or a date. */
  until?: string | undefined;
  minAmount?: string | undefined;
  maxAmount?: string | undefined;
}

export interface OpsListOptions extends OpsFilterOptions {
  /** Page size, 1 to 1000. Default: the server's (50); with --all, 1000. */
  limit?: number | undefined;
  /** Start after this operation: the `next_cursor` of the page before. */
  cursor?: string | undefined;
  /** Walk every page. Default false. */
  all: boolean;
  json: boolean;
  /** RFC 4180 CSV with a header row. Default false. */
  csv: boolean;
}

export interface OpsShowOptions {
  /** The positional: an operation_id (a UUID), else a merchant_operation_id. */
  ref?: string | undefined;
  /** `--merchant-operation-id`: say explicitly that the reference is a merchant_operation_id. */
  merchantOperationId?: string | undefined;
  shop?: string | undefined;
  json: boolean;
}

export interface OpsWatchOptions extends OpsFilterOptions {
  /** Watch this one operation (operation_id or merchant_operation_id) until it is terminal; else a tail. */
  id?: string | undefined;
  /** One JSON object per line. Default false. */
  json: boolean;
}

const filters = ({ opts }: Parsed): OpsFilterOptions => ({
  status: str(opts.status),
  type: str(opts.type),
  method: str(opts.method),
  clientId: str(opts.clientId),
  merchantOperationId: str(opts.merchantOperationId),
  shop: str(opts.shop),
  since: str(opts.since),
  until: str(opts.until),
  minAmount: str(opts.minAmount),
  maxAmount: str(opts.maxAmount),
});

const listOptions = (p: Parsed): OpsListOptions => ({
  ...filters(p),
  limit: num(p.opts.limit),
  cursor: str(p.opts.cursor),
  all: flag(p.opts.all),
  json: flag(p.opts.json),
  csv: flag(p.opts.csv),
});

const showOptions = ({ args, opts }: Parsed): OpsShowOptions => ({
  ref: str(args[0]),
  merchantOperationId: str(opts.merchantOperationId),
  shop: str(opts.shop),
  json: flag(opts.json),
});

const watchOptions = (p: Parsed): OpsWatchOptions => ({ ...filters(p), id: str(p.args[0]), json: flag(p.opts.json) });

/** The filter flags, shared by `ops list` and `ops watch`. */
function withFilters(cmd: Command): Command {
  return cmd
    .option(
      '--status <status>',
      'only this status: pending, awaiting_confirmation, manual_check, completed, cancelled, rejected',
    )
    .addOption(new Option('--type <type>', 'only payments or only payouts').choices(['payment', 'payout']))
    .option('--method <method>', 'only this method, e.g. WT_RUB_C2C')
    .option('--client-id <id>', 'only this client_id (exactly; a tag such as +reject is part of it)')
    .option('--merchant-operation-id <id>', 'only this merchant_operation_id (across shops, several may use it)')
    .option('--shop <shop_id>', "only this shop's (with the admin token; a key sees its own shop only)")
    .option(
      '--since <time>',
      'created at or after: RFC 3339 (2026-11-23T09:00:00Z) or a date (2026-11-23, UTC midnight)',
    )
    .option('--until <time>', 'created before: RFC 3339 or a date')
    .option('--min-amount <amount>', 'expected amount at least, e.g. 1000.00')
    .option('--max-amount <amount>', 'expected amount at most, e.g. 50000.00');
}

const CREDENTIAL_NOTE = `
Reads with the sandbox admin token when one is configured (--admin-token, PAYGATE_ADMIN_TOKEN, profile key
admin-token): every shop. Otherwise with the API key: that key's shop only.`;

/** The subcommands and help text of the `ops` group (created, with its description, by program.ts). */
export function defineOps(opsCmd: Command): void {
  opsCmd.addHelpText(
    'after',
    `${CREDENTIAL_NOTE}
${example(`
  $ paygate ops list --client-id user-42
  $ paygate ops show order-1001 --shop shop_a
  $ paygate ops watch order-1001`)}`,
  );

  defineList(opsCmd);
  defineShow(opsCmd);
  defineWatch(opsCmd);
}

/** `ops list`: the filters, paging and output formats. */
function defineList(opsCmd: Command): void {
  withFilters(
    opsCmd
      .command('list')
      .description('find operations across shops, newest first, with filters (GET /sandbox/operations)'),
  )
    .option(
      '--limit <n>',
      'page size, 1 to 1000 (default 50; 1000 a page with --all)',
      parseIntIn(1, 1000, 'an integer from 1 to 1000'),
    )
    .option('--cursor <operation_id>', 'start after this operation: the cursor the previous page printed')
    .option('--all', 'walk every page and print every matching row')
    .option('--json', `${JSON_HELP} (with --all: one body holding every row)`)
    .option('--csv', 'print RFC 4180 CSV with a header row (every field of the row, amounts as the API writes them)')
    .addHelpText(
      'after',
      `
Columns: created, updated, shop, merchant_operation_id, client_id, type, method, amount (expected), actual, status
and reason (the cause of the last transition: why it ended). Under a page that has more, a "more:" line gives the
command for the next page.${CREDENTIAL_NOTE}
${example(`
  $ paygate ops list --status rejected --since 2026-11-23
  $ paygate ops list --client-id user-42 --shop shop_a --json
  $ paygate ops list --method WT_RUB_PHONE --min-amount 10000.00 --all --csv > big-phone-payments.csv`)}`,
    )
    .action(action(listOptions, async () => (await import('./run.js')).list));
}

/** `ops show`: one operation explained. */
function defineShow(opsCmd: Command): void {
  opsCmd
    .command('show')
    .description(
      'one operation explained: summary, timeline (request, transitions with causes, receipts, webhook attempts), receipts, postings',
    )
    .argument(
      '[operation_id | merchant_operation_id]',
      'a UUID is read as an operation_id, anything else as a merchant_operation_id',
    )
    .option('--merchant-operation-id <id>', 'the merchant_operation_id, when it could be read as an operation_id')
    .option('--shop <shop_id>', 'the shop of a merchant_operation_id that several shops used (admin token)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `${CREDENTIAL_NOTE}
${example(`
  $ paygate ops show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate ops show order-1001 --shop shop_b
  $ paygate ops show order-1001 --json`)}`,
    )
    .action(action(showOptions, async () => (await import('./run.js')).show));
}

/** `ops watch`: one operation until it is terminal, or a live tail of the matching changes. */
function defineWatch(opsCmd: Command): void {
  withFilters(
    opsCmd
      .command('watch')
      .description('live: one operation until it is terminal, or every change matching the filters (Ctrl+C stops)')
      .argument(
        '[operation_id | merchant_operation_id]',
        'watch this one operation (resolved as `ops show` does: --shop only for a merchant_operation_id several shops use)',
      ),
  )
    .option('--json', 'one JSON object per line (NDJSON): each change as the listing row')
    .addHelpText(
      'after',
      `
Each change is one line: when, shop, merchant_operation_id, type and method, amount, the move (from the status last
seen) with its cause, operation_id. Fed by the sandbox as it writes (server-sent events), never by listing again.
With an operation it prints its current state first and exits 0 once it is terminal; Ctrl+C ends either with exit 0.${CREDENTIAL_NOTE}
${example(`
  $ paygate ops watch 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate ops watch order-1001
  $ paygate ops watch --status rejected
  $ paygate ops watch --client-id user-42 --json | jq .status`)}`,
    )
    .action(action(watchOptions, async () => (await import('./watch.js')).watch));
}
