// `paygate sandbox evidence [--on | --off]`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, adminExample, flag, JSON_HELP, type Parsed } from '../../shared.js';

/** Neither: show the switch. At most one of `on` and `off` (checked by the command). */
export interface EvidenceOptions {
  on: boolean;
  off: boolean;
  json: boolean;
}

const evidenceOptions = ({ opts }: Parsed): EvidenceOptions => ({
  on: flag(opts.on),
  off: flag(opts.off),
  json: flag(opts.json),
});

export function defineSandboxEvidence(sandboxCmd: Command): void {
  sandboxCmd
    .command('evidence')
    .description(
      'show, or switch on / off, receipt evidence and receipt URL signing (GET|PUT /sandbox/evidence; admin token)',
    )
    .option('--on', 'make receipt evidence available again')
    .option('--off', 'make receipt evidence unavailable (state by operation_id answers 503 evidence_unavailable)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox evidence
  $ paygate sandbox evidence --off
  $ paygate sandbox evidence --on --json`),
    )
    .action(action(evidenceOptions, async () => (await import('./run.js')).evidence));
}
