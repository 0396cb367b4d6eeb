// `paygate sandbox evidence [--on | --off]` (flags: define.ts): show or switch receipt evidence
// and URL signing (admin token).
import type { EvidenceOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { UsageError } from '../../../errors.js';
import { show } from '../../../output.js';
import { evidenceView } from '../../../views.js';

export async function evidence({ on, off, json }: EvidenceOptions, deps: CommandDeps): Promise<void> {
  if (on && off) throw new UsageError('pass either --on or --off, not both');
  const { client } = await deps.connect({ needKey: false, needAdminToken: true });
  if (on || off) {
    await show(
      deps.output,
      json,
      `Switching receipt evidence ${on ? 'on' : 'off'}…`,
      () => client.sandbox.evidence.set(on),
      evidenceView,
    );
  } else {
    await show(
      deps.output,
      json,
      'Reading the receipt evidence switch…',
      () => client.sandbox.evidence.get(),
      evidenceView,
    );
  }
}
