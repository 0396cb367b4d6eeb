// What a create ends in, told in full: while it waits on a provider, whether the sandbox clock is frozen (then the
// answer comes only when time is advanced); once answered, why it was rejected (the cause the sandbox recorded);
// and `--expect-status` for scripts. Shared by `payment create`, `payment link` and `payout create`.
import type { Paygate, WithResponse } from '../client/index.js';
import { APIError, PaygateError } from '../client/errors.js';
import { out } from './colors.js';
import type { CommandDeps } from './deps.js';
import { UnexpectedStatusError } from './errors.js';
import type { Call } from './output.js';

/** The default of CommandDeps.slowAfterMs. */
const SLOW_AFTER_MS = 1000;

/** What the rejection causes the sandbox records mean (the rules of spec §2.2, in the order the gateway checks them). */
const CAUSES: Record<string, string> = {
  no_route: 'the shop has no route for this method and currency',
  no_provider_accepted: 'no provider on the route accepted it (in the sandbox, a client_id tagged +reject forces this)',
  pricing_not_covered: "the shop's pricing has no band for this amount",
  amount_out_of_route_limits: "the amount is outside the route's minimum and maximum",
  amount_below_commission: 'the commission would take the whole amount',
  insufficient_funds: 'the balance plus overdraft does not cover the payout and its commission',
};

const ADVANCE = 'paygate sandbox time advance 15s';

/**
 * What to say about a create still unanswered: the clock is frozen (read once, with the admin token), or, when the
 * clock cannot be read (no or another admin token), what to do if it is. Nothing when it runs, on a real gateway, or
 * when the server cannot be reached (the create's own error will say so).
 */
export async function slowCreateHint(client: Paygate): Promise<string | undefined> {
  try {
    const clock = await client.sandbox.clock.get({ maxRetries: 0, timeout: 2000 });
    if (!clock.frozen) return undefined;
    return `Waiting for the provider: the sandbox clock is frozen, so its answer (at most 15 s of sandbox time) comes only when time moves. In another terminal: ${ADVANCE}`;
  } catch (e) {
    // The client has no admin token (refused before sending), or the sandbox refused it.
    const noToken =
      e instanceof APIError
        ? e.status === 401
        : e instanceof PaygateError && Object.getPrototypeOf(e) === PaygateError.prototype;
    return noToken
      ? `Still waiting for the provider (up to 15 s). If the sandbox clock is frozen, advance it in another terminal: ${ADVANCE} --admin-token <token>`
      : undefined;
  }
}

/** Await the create under the spinner; past `slowAfterMs` without an answer, ask the clock once and say what it means. */
async function awaitCreate<T>(
  deps: CommandDeps,
  client: Paygate,
  text: string,
  call: () => Call<T>,
): Promise<WithResponse<T>> {
  return deps.output.spin(text, async (say) => {
    let answered = false;
    const timer = setTimeout(() => {
      void slowCreateHint(client).then((hint) => {
        if (hint && !answered) say(hint);
      });
    }, deps.slowAfterMs ?? SLOW_AFTER_MS);
    timer.unref();
    try {
      return await call().withResponse();
    } finally {
      answered = true;
      clearTimeout(timer);
    }
  });
}

/** Why an operation was rejected, from its recorded history (a sandbox control); undefined where none is recorded. */
export async function rejectionCause(client: Paygate, operationId: string): Promise<string | undefined> {
  try {
    const details = await client.sandbox.operations.details({ operation_id: operationId }, { maxRetries: 0 });
    const entry = [...details.history].reverse().find((h) => h.to === 'rejected');
    if (!entry) return undefined;
    const cause = entry.cause.replace(/^create: /, '');
    const meaning = CAUSES[cause];
    return meaning ? `${cause}: ${meaning}` : cause;
  } catch {
    return undefined;
  }
}

/** The answer of a create: an operation, or a flexible link's amount selection (no operation). */
export interface CreateAnswer {
  status: string;
  operation_id: string;
}

export interface CreateOutputOptions {
  json: boolean;
  expectStatus?: string | undefined;
}

/**
 * Run a create and print it (`--json`: exactly the body; else `view`), then why it was rejected (stdout, or a note on
 * stderr under --json), then check `--expect-status` (UnexpectedStatusError, exit 1). Returns the answer.
 */
export async function showCreate<T extends CreateAnswer>(
  deps: CommandDeps,
  client: Paygate,
  options: CreateOutputOptions,
  text: string,
  call: () => Call<T>,
  view: (data: T) => string,
): Promise<T> {
  const { data, response } = await awaitCreate(deps, client, text, call);
  const why =
    data.status === 'rejected' && 'type' in data ? await rejectionCause(client, data.operation_id) : undefined;
  if (options.json) {
    deps.output.json(response.body);
    if (why) deps.output.note(`rejected: ${why}`);
  } else {
    deps.output.print(view(data));
    if (why) deps.output.print(`\n${out.bold('Rejected:')} ${why}`);
  }
  if (options.expectStatus !== undefined && data.status !== options.expectStatus) {
    throw new UnexpectedStatusError(
      `expected status ${options.expectStatus}, got ${data.status}${why ? ` (${why})` : ''}`,
      `read it again with \`paygate state ${data.operation_id}\`; its history: \`paygate operation history ${data.operation_id}\``,
    );
  }
  return data;
}
