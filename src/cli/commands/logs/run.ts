// `paygate logs tail` (flags: define.ts): the newest requests the sandbox answered, then each one as it is
// answered (GET /sandbox/logs/stream with backlog, so nothing falls between the two). Ctrl+C ends it with exit 0.
import { LogsStreamQuery } from '../../../contract/support.js';
import type { LogsTailOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { CliError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { checkQuery, connectSupport } from '../../support-query.js';
import { logLine } from '../../support-views.js';
import { interruptSignal } from '../ops/watch.js';

export async function tail(options: LogsTailOptions, deps: CommandDeps): Promise<void> {
  const { signal, release } = interruptSignal();
  try {
    await tailUntil(options, deps, signal);
  } finally {
    release();
  }
}

/** The command proper: runs until `signal` aborts. */
export async function tailUntil(options: LogsTailOptions, deps: CommandDeps, signal: AbortSignal): Promise<void> {
  const filters = {
    shop: options.shop,
    method: options.method,
    status: options.status,
    path: options.path,
    errors: options.errors,
  };
  checkQuery(LogsStreamQuery, { ...filters, errors: options.errors ? 'true' : undefined, backlog: options.sinceStart });
  const { client } = await connectSupport(deps);
  deps.output.note(
    `Tailing the sandbox's request log${options.sinceStart > 0 ? ` (the newest ${options.sinceStart} first)` : ''} (Ctrl+C stops)…`,
  );
  for await (const entry of client.sandbox.logs.stream({ ...filters, backlog: options.sinceStart }, { signal })) {
    deps.output.print(options.json ? JSON.stringify(entry) : logLine(entry));
  }
  if (signal.aborted) return;
  throw new CliError(
    'the sandbox closed the stream',
    EXIT.CONNECTION,
    'is the sandbox still running? run the command again once it is',
  );
}
