// `paygate sandbox keys list | issue | revoke`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, adminExample, flag, JSON_HELP, REQUIRED, str, type Parsed } from '../../shared.js';

const run = () => import('./run.js');

export interface ListKeysOptions {
  /** Only this shop's keys. Default: every shop's. */
  shop?: string | undefined;
  json: boolean;
}

export interface IssueKeyOptions {
  /** The shop the key belongs to; asked for on a TTY. */
  shop?: string | undefined;
  label?: string | undefined;
  /** Comma-separated endpoint groups: links, amounts (checked by the command). Default: all. */
  scopes?: string | undefined;
  json: boolean;
}

export interface RevokeKeyOptions {
  keyId: string;
  json: boolean;
}

const listOptions = ({ opts }: Parsed): ListKeysOptions => ({ shop: str(opts.shop), json: flag(opts.json) });
const issueOptions = ({ opts }: Parsed): IssueKeyOptions => ({
  shop: str(opts.shop),
  label: str(opts.label),
  scopes: str(opts.scopes),
  json: flag(opts.json),
});
const revokeOptions = ({ args, opts }: Parsed): RevokeKeyOptions => ({ keyId: String(args[0]), json: flag(opts.json) });

export function defineSandboxKeys(sandboxCmd: Command): void {
  const keysCmd = sandboxCmd.command('keys').description('list, issue and revoke API keys of every shop (admin token)');
  keysCmd.addHelpText(
    'after',
    adminExample(`
  $ paygate sandbox keys list --shop shop_a
  $ paygate sandbox keys issue --shop shop_b --label ci
  $ paygate sandbox keys revoke key_0123456789ab`),
  );
  keysCmd
    .command('list')
    .description('API keys (masked to their last 4 characters) and whether they are revoked (GET /sandbox/keys)')
    .option('--shop <id>', "only this shop's keys, e.g. shop_a")
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox keys list
  $ paygate sandbox keys list --shop shop_b --json`),
    )
    .action(action(listOptions, async () => (await run()).listKeys));
  keysCmd
    .command('issue')
    .description('issue a new API key for a shop; the key is shown once (POST /sandbox/keys)')
    .option('--shop <id>', `the shop the key belongs to, e.g. shop_b${REQUIRED}`)
    .option('--label <text>', 'free text shown in key lists, at most 200 characters')
    .option(
      '--scopes <list>',
      'limit the key to these optional endpoint groups, comma-separated: links, amounts (others answer 403; default: all)',
    )
    .option('--json', 'print exactly the response body as JSON (it holds the plaintext api_key)')
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox keys issue --shop shop_b --label "ci runner"
  $ paygate sandbox keys issue --shop shop_pool --scopes amounts
  $ paygate sandbox keys issue --shop shop_a --json | jq -r .api_key`),
    )
    .action(action(issueOptions, async () => (await run()).issueKey));
  keysCmd
    .command('revoke')
    .description('revoke an API key: it stops authenticating at once (POST /sandbox/keys/{id}/revoke)')
    .argument('<key_id>', "the key's id, e.g. key_0123456789ab (see `paygate sandbox keys list`)")
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox keys revoke key_0123456789ab`),
    )
    .action(action(revokeOptions, async () => (await run()).revokeKey));
}
