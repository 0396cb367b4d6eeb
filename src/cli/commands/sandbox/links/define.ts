// `paygate sandbox links show | confirm`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, example, flag, JSON_HELP, REQUIRED, str, type Parsed } from '../../shared.js';

const run = () => import('./run.js');

export interface LinkShowOptions {
  operationId: string;
  json: boolean;
}

export interface LinkConfirmOptions extends LinkShowOptions {
  /** The amount the payer picks; asked for on a TTY. */
  amount?: string | undefined;
}

const showOptions = ({ args, opts }: Parsed): LinkShowOptions => ({
  operationId: String(args[0]),
  json: flag(opts.json),
});
const confirmOptions = (p: Parsed): LinkConfirmOptions => ({ ...showOptions(p), amount: str(p.opts.amount) });

export function defineSandboxLinks(sandboxCmd: Command): void {
  const linksCmd = sandboxCmd
    .command('links')
    .description("flexible links from the payer's side: show one, confirm an amount (shop API key)");
  linksCmd.addHelpText(
    'after',
    `
A flexible link (\`paygate payment link --flexible\`) that answered amount_selection has no payment yet: the payer
picks an amount within its bounds before expires_at. These commands act as that payer, with the shop's API key.
${example(`
  $ paygate sandbox links show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox links confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --amount 2500.00`)}`,
  );
  linksCmd
    .command('show')
    .description(
      'a flexible link: status (amount_selection, expired, rejected, confirmed), bounds, expires_at (GET /sandbox/links/{id})',
    )
    .argument('<operation_id>', "the link's operation_id, as answered by `paygate payment link --flexible`")
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox links show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox links show 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --json`),
    )
    .action(action(showOptions, async () => (await run()).showLink));
  linksCmd
    .command('confirm')
    .description(
      'the payer picks an amount on a flexible link: the payment is created for it, or rejected if the pool can no longer take it (POST /sandbox/links/{id}/confirm)',
    )
    .argument('<operation_id>', "the link's operation_id")
    .option('--amount <amount>', `the amount the payer picks, within the link's bounds, e.g. 2500.00${REQUIRED}`)
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox links confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --amount 2500.00
  $ paygate sandbox links confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --amount 2500.00 --json`),
    )
    .action(action(confirmOptions, async () => (await run()).confirmLink));
}
