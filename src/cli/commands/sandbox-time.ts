// `paygate sandbox time` and `paygate sandbox time advance <duration>`: the sandbox clock (admin token).
import { connect } from '../api.js';
import { show } from '../output.js';
import { clockView } from '../views.js';

type Opts = Record<string, unknown>;

export async function time(opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  await show(opts, 'Reading the sandbox clock…', () => client.sandbox.clock.get(), clockView);
}

/** `duration` is already checked by program.ts: a duration string such as `10s`, or milliseconds. */
export async function advance(duration: string | number, opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  await show(opts, `Advancing the sandbox clock by ${typeof duration === 'number' ? `${duration} ms` : duration}…`, () => client.sandbox.clock.advance(duration), clockView);
}
