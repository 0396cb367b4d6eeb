// `paygate cluster status`: flags, help and typed options (run: run.ts). A cluster is `sandbox start --cluster`
// processes on one PostgreSQL store (docs/scale-out.md); its status takes the cluster's admin token.
import type { Command } from 'commander';
import { action, adminExample, jsonOptions, JSON_HELP } from '../shared.js';

export function defineCluster(cmd: Command): void {
  cmd
    .command('status')
    .description(
      'list the processes of the cluster, their addresses, the workspaces each owns and their lease ages (GET /cluster/status on any process; admin token)',
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate cluster status --base-url http://10.0.0.5:4080
  $ paygate cluster status --json | jq '.nodes[] | {id, workspaces: [.workspaces[].id]}'`),
    )
    .action(action(jsonOptions, async () => (await import('./run.js')).clusterStatus));
}
