// `paygate sandbox faults set | list | clear` (flags: define.ts): fault injection (admin token). A fault
// is checked here against the spec's table before it is sent, so a status the endpoint cannot answer is a usage
// error (exit 2) that names the ones it can.
import { parseDurationText } from '../../../../contract/duration.js';
import { FaultInput, MAX_FAULT_LATENCY_MS } from '../../../../contract/faults.js';
import type { JsonOptions } from '../../shared.js';
import type { FaultClearOptions, FaultSetOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { UsageError } from '../../../errors.js';
import { faultsView, faultView, removedView } from '../../../fault-views.js';
import { show } from '../../../output.js';

const ADMIN = { needKey: false, needAdminToken: true } as const;
const EXAMPLE = 'e.g. `paygate sandbox faults set --endpoint operation.cancel --status 503 --count 3`';

/** The flag of each body field, for messages. */
const FLAG_OF: Record<string, string> = {
  endpoint: '--endpoint',
  status: '--status',
  code: '--code',
  latency_ms: '--latency',
  drop_response_after_commit: '--drop-response',
  drift: '--drift',
  field: '--field',
  to: '--to',
  value: '--value',
  shop_id: '--shop',
  count: '--count',
  probability: '--probability',
  seed: '--seed',
};

/** `--latency` as milliseconds: 1 ms to 10 minutes. */
function latencyMs(text: string): number {
  const r = parseDurationText(text, MAX_FAULT_LATENCY_MS);
  if (!r.ok) throw new UsageError(`--latency ${r.message}`, 'e.g. --latency 1500ms, --latency 2s (at most 10m)');
  if (r.ms === 0) throw new UsageError('--latency must be more than 0', 'e.g. --latency 1500ms');
  return r.ms;
}

/** `--value` as JSON when it parses (`"9.99"`, `0`, `null`, `{...}`), else the text itself (`pending`). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The request body of the fault the flags describe, checked with the contract's rules. */
export function faultBody(o: FaultSetOptions): FaultInput {
  if (o.endpoint === undefined) throw new UsageError('missing --endpoint', EXAMPLE);
  const body: Record<string, unknown> = { endpoint: o.endpoint };
  if (o.status !== undefined) body.status = o.status;
  if (o.code !== undefined) body.code = o.code;
  if (o.latency !== undefined) body.latency_ms = latencyMs(o.latency);
  if (o.dropResponse) body.drop_response_after_commit = true;
  if (o.drift !== undefined) body.drift = o.drift;
  if (o.field !== undefined) body.field = o.field;
  if (o.to !== undefined) body.to = o.to;
  if (o.value !== undefined) body.value = jsonOrText(o.value);
  if (o.shop !== undefined) body.shop_id = o.shop;
  if (o.count !== undefined) body.count = o.count;
  if (o.probability !== undefined) body.probability = o.probability;
  if (o.seed !== undefined) body.seed = o.seed;
  const r = FaultInput.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    // The contract names body fields; say the flags instead (`seed goes with probability` → `--seed goes with --probability`).
    const message = issue.message.replace(
      /(?<![\w-])(status|code|latency_ms|drop_response_after_commit|drift|field|to|value|shop_id|count|probability|seed)\b/g,
      (w) => FLAG_OF[w]!,
    );
    const flag = FLAG_OF[field] ?? field;
    throw new UsageError(field && !message.startsWith(flag) ? `${flag}: ${message}` : message, EXAMPLE);
  }
  return body as FaultInput;
}

export async function setFault(options: FaultSetOptions, deps: CommandDeps): Promise<void> {
  const body = faultBody(options);
  const { client } = await deps.connect(ADMIN);
  if (options.replace) {
    await show(
      deps.output,
      options.json,
      'Replacing the faults…',
      () => client.sandbox.faults.set([body]),
      (res) => faultsView(res.faults),
    );
    return;
  }
  await show(deps.output, options.json, 'Adding the fault…', () => client.sandbox.faults.add(body), faultView);
}

export async function listFaults({ json }: JsonOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  await show(
    deps.output,
    json,
    'Reading the faults…',
    () => client.sandbox.faults.list(),
    (res) => faultsView(res.faults),
  );
}

export async function clearFaults({ id, json }: FaultClearOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  if (id !== undefined) {
    await show(deps.output, json, `Removing fault ${id}…`, () => client.sandbox.faults.remove(id), removedView);
    return;
  }
  await show(deps.output, json, 'Removing every fault…', () => client.sandbox.faults.clear(), removedView);
}
