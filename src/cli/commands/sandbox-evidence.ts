// `paygate sandbox evidence [--on | --off]`: show or switch receipt evidence and URL signing (admin token).
import { connect } from '../api.js';
import { UsageError } from '../errors.js';
import { show } from '../output.js';
import { evidenceView } from '../views.js';

export async function evidence(opts: Record<string, unknown>): Promise<void> {
  if (opts.on === true && opts.off === true) throw new UsageError('pass either --on or --off, not both');
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  if (opts.on === true || opts.off === true) {
    const available = opts.on === true;
    await show(opts, `Switching receipt evidence ${available ? 'on' : 'off'}…`, () => client.sandbox.evidence.set(available), evidenceView);
  } else {
    await show(opts, 'Reading the receipt evidence switch…', () => client.sandbox.evidence.get(), evidenceView);
  }
}
