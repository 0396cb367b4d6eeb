// `paygate sandbox start` glue: resolves the options, loads the lead's runSandboxStart and turns any failure
// to load or start into a SandboxStartError (exit 5).
import { CliError, SandboxStartError } from '../errors.js';
import { sandboxStartOptions } from './sandbox-options.js';

export async function sandboxStart(opts: Record<string, unknown>): Promise<void> {
  const resolved = sandboxStartOptions(opts);
  let m: typeof import('./sandbox-start.js');
  try {
    m = await import('./sandbox-start.js');
  } catch (e) {
    throw new SandboxStartError(`cannot load the sandbox: ${(e as Error).message}`, 'run `npm run build` first', { cause: e });
  }
  try {
    await m.runSandboxStart(resolved);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new SandboxStartError(`sandbox could not start: ${(e as Error)?.message ?? String(e)}`, undefined, { cause: e });
  }
}
