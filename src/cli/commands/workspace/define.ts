// `paygate workspace create | list | delete`: flags, help and typed options (run: run.ts). Workspaces
// are isolated sandboxes on one server (docs/workspaces.md); managing them takes the server's admin token.
import type { Command } from 'commander';
import { action, adminExample, flag, JSON_HELP, num, parseIntIn, str, type Parsed } from '../shared.js';

const run = () => import('./run.js');

export interface CreateWorkspaceOptions {
  id?: string | undefined;
  fixtures?: string | undefined;
  frozenClock: boolean;
  startTime?: string | undefined;
  maxOperations?: number | undefined;
  maxPoolPayouts?: number | undefined;
  json: boolean;
}

export interface DeleteWorkspaceOptions {
  id: string;
  json: boolean;
}

const createOptions = ({ opts }: Parsed): CreateWorkspaceOptions => ({
  id: str(opts.id),
  fixtures: str(opts.fixtures),
  frozenClock: flag(opts.frozenClock),
  startTime: str(opts.startTime),
  maxOperations: num(opts.maxOperations),
  maxPoolPayouts: num(opts.maxPoolPayouts),
  json: flag(opts.json),
});
const listOptions = ({ opts }: Parsed): { json: boolean } => ({ json: flag(opts.json) });
const deleteOptions = ({ args, opts }: Parsed): DeleteWorkspaceOptions => ({
  id: String(args[0]),
  json: flag(opts.json),
});

export function defineWorkspace(cmd: Command): void {
  cmd.addHelpText(
    'after',
    adminExample(`
  $ paygate workspace create --frozen-clock --json > ws.json      # a CI job's own sandbox on a shared server
  $ paygate workspace list
  $ paygate workspace delete ws_0123456789`),
  );
  cmd
    .command('create')
    .description(
      "create an isolated workspace: its own shops, keys, admin token, clock, pool and webhooks; its keys and admin token are printed once (POST /sandbox/workspaces; the server's admin token)",
    )
    .option(
      '--id <id>',
      'the workspace id (lower-case letters, digits, _ and -); its URLs are <base>/w/<id> (default: a random ws_… id)',
    )
    .option(
      '--fixtures <name>',
      "a fixture file of the server's fixtures folder or a bundled one, e.g. picker-amount-field (default: the server's fixtures)",
    )
    .option('--frozen-clock', 'stand its clock still until advanced (default: it follows real time)')
    .option('--start-time <time>', 'its sandbox time at the start, RFC 3339 (default: now)')
    .option(
      '--max-operations <n>',
      'operations it may hold; creates beyond answer 409 workspace_limit (default 50000)',
      parseIntIn(1, 1_000_000, 'an integer from 1 to 1000000'),
    )
    .option(
      '--max-pool-payouts <n>',
      'open pool payouts per shop; layouts beyond answer 409 pool_limit (default 20000)',
      parseIntIn(1, 20_000, 'an integer from 1 to 20000'),
    )
    .option('--json', 'print exactly the response body as JSON (it holds the plaintext keys and admin token)')
    .addHelpText(
      'after',
      adminExample(`
  $ paygate workspace create --id ci-42 --frozen-clock
  $ paygate workspace create --fixtures picker-amount-field --max-operations 1000 --json | jq -r .keys.shop_a`),
    )
    .action(action(createOptions, async () => (await run()).createWorkspace));
  cmd
    .command('list')
    .description("the server's workspaces: id, base URL, clock, operations held, limits (GET /sandbox/workspaces)")
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate workspace list
  $ paygate workspace list --json | jq -r '.workspaces[].id'`),
    )
    .action(action(listOptions, async () => (await run()).listWorkspaces));
  cmd
    .command('delete')
    .description(
      'delete a workspace and all its data; its keys and admin token stop working (DELETE /sandbox/workspaces/{id})',
    )
    .argument('<id>', 'the workspace id (see `paygate workspace list`)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate workspace delete ci-42`),
    )
    .action(action(deleteOptions, async () => (await run()).deleteWorkspace));
}
