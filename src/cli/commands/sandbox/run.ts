// `paygate sandbox start` glue (flags: define.ts): loads runSandboxStart and turns any failure to load or
// start into a SandboxStartError (exit 5).
import type { SandboxStartOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { CliError, SandboxStartError } from '../../errors.js';

export async function sandboxStart(options: SandboxStartOptions, deps: CommandDeps): Promise<void> {
  let m: typeof import('./start.js');
  try {
    m = await import('./start.js');
  } catch (e) {
    throw new SandboxStartError(`cannot load the sandbox: ${(e as Error).message}`, 'run `npm run build` first', {
      cause: e,
    });
  }
  try {
    await m.runSandboxStart(options, deps.output);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new SandboxStartError(`sandbox could not start: ${(e as Error)?.message ?? String(e)}`, undefined, {
      cause: e,
    });
  }
}
