// `paygate ops watch [<id>]` (flags: define.ts): one operation until it is terminal, or a live tail of every
// change matching the filters — fed by the sandbox's server-sent events as it writes. Ctrl+C (SIGINT) or SIGTERM ends
// it with exit 0, like `paygate webhooks listen`.
import { StreamOperationsQuery } from '../../../contract/support.js';
import type { OpsWatchOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { checkQuery, connectSupport, filtersOf, flagsLine } from '../../support-query.js';
import { changeLine } from '../../support-views.js';

const TERMINAL = new Set(['completed', 'cancelled', 'rejected']);

/** An AbortSignal that fires on SIGINT or SIGTERM, and the function that stops listening for them. */
export function interruptSignal(): { signal: AbortSignal; release: () => void } {
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: ac.signal,
    release: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

export async function watch(options: OpsWatchOptions, deps: CommandDeps): Promise<void> {
  const { signal, release } = interruptSignal();
  try {
    await watchUntil(options, deps, signal);
  } finally {
    release();
  }
}

/** The command proper: ends when the watched operation is terminal or `signal` aborts. */
export async function watchUntil(options: OpsWatchOptions, deps: CommandDeps, signal: AbortSignal): Promise<void> {
  const filters = filtersOf(options);
  const { shop, ...others } = filters;
  if (options.id !== undefined && Object.keys(others).length > 0) {
    throw new UsageError(
      `${flagsLine(others)}: filters go with a tail, not with one operation`,
      'watch one operation by its id (and --shop), or drop the id for a tail of the changes matching the filters',
    );
  }
  checkQuery(StreamOperationsQuery, { ...filters, ...(options.id !== undefined ? { id: options.id } : {}) });
  const { client } = await connectSupport(deps);
  const what =
    options.id !== undefined
      ? `${options.id} until it is terminal`
      : Object.keys(filters).length > 0
        ? `changes matching ${flagsLine(filters)}`
        : 'every change';
  deps.output.note(`Watching ${what} (Ctrl+C stops)…`);
  const seen = new Map<string, string>();
  const stream = client.sandbox.operations.stream({ ...filters, id: options.id }, { signal });
  for await (const row of stream) {
    deps.output.print(options.json ? JSON.stringify(row) : changeLine(row, seen.get(row.operation_id)));
    seen.set(row.operation_id, row.status);
  }
  if (signal.aborted) return;
  const last = [...seen.values()].at(-1);
  if (options.id !== undefined && last !== undefined && TERMINAL.has(last)) return;
  throw new CliError(
    'the sandbox closed the stream',
    EXIT.CONNECTION,
    'is the sandbox still running? run the command again once it is',
  );
}
