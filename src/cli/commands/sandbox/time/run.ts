// `paygate sandbox time` and `paygate sandbox time advance <duration>` (flags: define.ts): the sandbox
// clock (admin token).
import type { JsonOptions } from '../../shared.js';
import type { AdvanceOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { show } from '../../../output.js';
import { clockView } from '../../../views.js';
import { durationArg } from '../../../durations.js';

export async function time(options: JsonOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect({ needKey: false, needAdminToken: true });
  await show(deps.output, options.json, 'Reading the sandbox clock…', () => client.sandbox.clock.get(), clockView);
}

export async function advance(options: AdvanceOptions, deps: CommandDeps): Promise<void> {
  const { json } = options;
  const duration = durationArg(options.duration);
  const { client } = await deps.connect({ needKey: false, needAdminToken: true });
  const how = typeof duration === 'number' ? `${duration} ms` : duration;
  await show(
    deps.output,
    json,
    `Advancing the sandbox clock by ${how}…`,
    () => client.sandbox.clock.advance(duration),
    clockView,
  );
}
