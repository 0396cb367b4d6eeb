// `paygate sandbox reset` (flags: define.ts): forget every operation, posting and issued key (admin
// token). Asks first on a terminal; without one it needs --yes, and never waits on stdin.
import type { ResetOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { InterruptedError, UsageError } from '../../../errors.js';
import { show } from '../../../output.js';
import { resetView } from '../../../views.js';

async function confirmed(baseUrl: string): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  try {
    // The question goes to stderr, so that stdout stays the response body with --json.
    return await confirm(
      {
        message: `Reset the sandbox at ${baseUrl}? Every operation, posting and issued key is forgotten.`,
        default: false,
      },
      { output: process.stderr },
    );
  } catch (e) {
    if ((e as Error)?.name === 'ExitPromptError') throw new InterruptedError();
    throw e;
  }
}

export async function reset({ yes, json }: ResetOptions, deps: CommandDeps): Promise<void> {
  const { client, baseUrl } = await deps.connect({ needKey: false, needAdminToken: true });
  if (!yes) {
    if (!deps.interactive)
      throw new UsageError(
        'sandbox reset needs --yes when there is no terminal to confirm on',
        'run `paygate sandbox reset --yes`',
      );
    if (!(await confirmed(baseUrl))) throw new UsageError('reset cancelled: nothing was changed');
  }
  await show(deps.output, json, 'Resetting the sandbox…', () => client.sandbox.reset(), resetView);
}
