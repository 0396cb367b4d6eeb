// Package entry `paygate/testing`: the sandbox inside a merchant's own test suite (vitest, jest, node:test).
// startSandbox() listens on 127.0.0.1 and hands back the keys, a client, the clock and the sandbox's controls as
// typed methods, and every webhook it sent; runScenario() runs a scenario file or object from code.
import { readFile } from 'node:fs/promises';
import { Paygate } from '../client/paygate.js';
import { createInProcessDispatcher, type FetchHandler } from '../client/in-process.js';
import type { ResponseOf } from '../client/routes.js';
import { parseDuration } from '../contract/duration.js';
import { createSandbox, type Sandbox } from '../emulator/sandbox.js';
import { parseScenario, scenarioFromObject } from '../scenarios/load.js';
import { renderFailure } from '../scenarios/reporters/diff.js';
import type { ScenarioResult } from '../scenarios/results.js';
import { runOneScenario, type ScenarioRunOptions } from '../scenarios/run-scenario.js';
import { forwarder } from './forward.js';
import { openRemote } from './remote.js';
import { WebhookEvents } from './webhook-events.js';

export { WebhookEvents, type WaitForOptions } from './webhook-events.js';
export type { WebhookEvent, WebhookEventType } from '../webhooks/index.js';
export type { ScenarioResult, StepResult } from '../scenarios/results.js';

export interface StartSandboxOptions {
  /** Fixture file. Default: the bundled default world (shops shop_a, shop_b, shop_pool). */
  fixtures?: string;
  /** `frozen`: time stands still until `clock.advance()`; `real`: it follows real time. Default `frozen`. */
  clock?: 'frozen' | 'real';
  /** Port on 127.0.0.1. Default 0 (a free one). */
  port?: number;
  /** Sandbox time at the start (frozen clock). Default: now. */
  startTime?: string | number;
  /** The shop whose key `client` uses. Default: the fixtures' first shop. */
  shop?: string;
  /**
   * Also deliver every webhook to your app's receiver: its http(s) URL (a string or a URL: each delivery is POSTed
   * there, body and webhook-* headers unchanged) or a fetch handler `(request) => Response`. Its answer is the
   * sandbox's: a non-2xx is retried on the sandbox clock. Anything else is refused by startSandbox. Default: none.
   */
  forwardWebhooksTo?: WebhookForwardTarget;
  /**
   * Listen over TLS with a fresh self-signed certificate (about a second to generate): `baseUrl`, payment_url and
   * receipt_url are https; give `ca` to the code under test. Default false.
   */
  https?: boolean;
}

/** A workspace of its own on a shared paygate server (`paygate sandbox start` elsewhere, e.g. a CI service). */
export interface SharedServerOptions extends Pick<
  StartSandboxOptions,
  'clock' | 'startTime' | 'shop' | 'forwardWebhooksTo'
> {
  /** The shared server's base URL, e.g. http://paygate:4080. */
  baseUrl: string;
  /** The server's admin token (what its `sandbox start` printed, or PAYGATE_ADMIN_TOKEN there). */
  adminToken: string;
  /** The name of a fixture file on the server (its fixtures folder or a bundled one). Default: the server's fixtures. */
  fixtures?: string;
  /** The workspace's limits (see docs/workspaces.md). Default: the server's defaults. */
  limits?: { operations?: number; pool_payouts?: number };
  /**
   * The host name the server reaches this process at, for webhooks (the receiver then listens on every interface).
   * Default 127.0.0.1: the server runs on this machine.
   */
  webhookHost?: string;
}

/** Where `forwardWebhooksTo` sends each delivery: an http(s) URL, or a fetch handler. */
export type WebhookForwardTarget = string | URL | FetchHandler['fetch'];

export type Operation = ResponseOf<'operations.pay'>;

/** What a test sandbox gives, in this process or as a workspace on a shared server. */
export interface TestSandboxBase {
  /** http://127.0.0.1:<port> (https with `https`) — give it to the code under test as the gateway's base URL. */
  readonly baseUrl: string;
  /** With `https`: the certificate (PEM) the code under test must trust, e.g. `new Paygate({ ca })`. Else undefined. */
  readonly ca: string | undefined;
  /** API key of each shop, by shop id; `default` is the key `client` uses. */
  readonly keys: Readonly<Record<string, string>> & { readonly default: string };
  /** X-Admin-Token of the cross-shop controls. */
  readonly adminToken: string;
  /** The `whsec_…` secret every webhook is signed with (give it to your receiver). */
  readonly webhookSecret: string;
  /** A typed client for the default shop, with the admin token, in process (no socket). */
  readonly client: Paygate;
  readonly clock: {
    /** Move sandbox time forward (`'5s'`, `'30m'`, or milliseconds), running every timer that falls due. */
    advance(by: string | number): Promise<void>;
    /** Sandbox time, epoch ms. */
    now(): number;
  };
  /** The payer transfers to a payment (the whole amount, or `amount`). */
  pay(operationId: string, amount?: string): Promise<Operation>;
  /** The provider completes or fails a payout. */
  settle(operationId: string, outcome?: 'completed' | 'failed'): Promise<Operation>;
  /** A reviewer approves or declines a payment under manual_check. */
  review(operationId: string, decision: 'approve' | 'decline', amount?: string): Promise<Operation>;
  /** Every webhook the sandbox sent, verified against its secret. */
  readonly webhooks: WebhookEvents;
  close(): Promise<void>;
}

export interface TestSandbox extends TestSandboxBase {
  /** The sandbox itself (fetch, urls, demo shops, tls, `webhooks.idle()`) for what the above does not cover. */
  readonly sandbox: Sandbox;
}

/** A workspace on a shared server: `close()` deletes it and all its data. No in-process `sandbox`. */
export interface WorkspaceTestSandbox extends TestSandboxBase {
  /** The workspace's id on the server (its URLs are under `<server>/w/<id>`). */
  readonly workspaceId: string;
}

const RECEIVER_URL = 'http://webhooks.paygate.test/receive';

/**
 * Start a sandbox on 127.0.0.1 for a test file; `await sb.close()` in afterAll. With `baseUrl` and `adminToken`:
 * create a workspace of its own on that shared server instead, deleted by `close()`.
 */
export async function startSandbox(opts: SharedServerOptions): Promise<WorkspaceTestSandbox>;
export async function startSandbox(opts?: StartSandboxOptions): Promise<TestSandbox>;
export async function startSandbox(
  opts: StartSandboxOptions | SharedServerOptions = {},
): Promise<TestSandbox | WorkspaceTestSandbox> {
  if ('baseUrl' in opts) return startWorkspace(opts);
  return startLocal(opts);
}

async function startLocal(opts: StartSandboxOptions): Promise<TestSandbox> {
  const webhooks = new WebhookEvents(forwarder(opts.forwardWebhooksTo));
  const sandbox = await createSandbox({
    ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
    frozenClock: (opts.clock ?? 'frozen') === 'frozen',
    ...(opts.startTime !== undefined ? { startTime: opts.startTime } : {}),
    webhookUrl: RECEIVER_URL,
    webhookDispatcher: createInProcessDispatcher(webhooks),
    log: () => {},
    https: opts.https ?? false,
  });
  try {
    webhooks.attach(sandbox);
    const { url } = await sandbox.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
    return wrap(sandbox, url, webhooks, opts.shop);
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}

/** pay, settle and review through the client, each answering once the webhooks it caused were delivered. */
function controls(client: Paygate, settle: () => Promise<void>): Pick<TestSandboxBase, 'pay' | 'settle' | 'review'> {
  // The low-level call by the control's id: the contract's table, whatever shape the resource classes take.
  const control = async <E extends 'operations.pay' | 'operations.settle' | 'operations.review'>(
    id: E,
    operationId: string,
    body: object,
  ) => {
    const answer = await client.request(id, { params: { id: operationId }, body }, { maxRetries: 0 });
    await settle();
    return answer;
  };
  return {
    pay: (id, amount) => control('operations.pay', id, amount === undefined ? {} : { amount }),
    settle: (id, outcome = 'completed') => control('operations.settle', id, { outcome }),
    review: (id, decision, amount) =>
      control('operations.review', id, amount === undefined ? { decision } : { decision, amount }),
  };
}

function wrap(sandbox: Sandbox, baseUrl: string, webhooks: WebhookEvents, shop: string | undefined): TestSandbox {
  const byShop = Object.fromEntries(sandbox.demo.shops.map((s) => [s.id, s.api_key]));
  const defaultKey = byShop[shop ?? sandbox.demo.shops[0]?.id ?? ''];
  if (!defaultKey) throw new Error(`no shop ${shop} in the fixtures`);
  const client = new Paygate({
    baseUrl,
    apiKey: defaultKey,
    adminToken: sandbox.adminToken,
    dispatcher: createInProcessDispatcher(sandbox),
    maxRetries: 0,
  });
  return {
    baseUrl,
    ca: sandbox.tls?.cert,
    keys: { ...byShop, default: defaultKey },
    adminToken: sandbox.adminToken ?? '',
    webhookSecret: sandbox.webhookSecret ?? '',
    client,
    clock: {
      async advance(by) {
        const ms = typeof by === 'number' ? by : parseDuration(by);
        if (ms === undefined) throw new Error(`not a duration: ${by}`);
        await sandbox.clock.advance(ms);
        await webhooks.settle();
      },
      now: () => sandbox.clock.now(),
    },
    ...controls(client, () => webhooks.settle()),
    webhooks,
    sandbox,
    close: () => sandbox.close(),
  };
}

async function startWorkspace(opts: SharedServerOptions): Promise<WorkspaceTestSandbox> {
  if (!opts.adminToken)
    throw new Error("startSandbox({ baseUrl }) needs the server's adminToken to create a workspace");
  const remote = await openRemote({
    ...opts,
    forwardWebhooksTo: forwarder(opts.forwardWebhooksTo),
    clock: opts.clock ?? 'frozen',
  });
  const { workspace: ws, webhooks } = remote;
  const defaultKey = ws.keys[opts.shop ?? ws.shops[0]?.id ?? ''];
  if (!defaultKey) {
    await remote.close();
    throw new Error(`no shop ${opts.shop} in the workspace (shops: ${ws.shops.map((s) => s.id).join(', ')})`);
  }
  const client = new Paygate({ baseUrl: ws.base_url, apiKey: defaultKey, adminToken: ws.admin_token, maxRetries: 0 });
  return {
    workspaceId: ws.id,
    baseUrl: ws.base_url,
    ca: undefined,
    keys: { ...ws.keys, default: defaultKey },
    adminToken: ws.admin_token,
    webhookSecret: remote.webhookSecret,
    client,
    clock: { advance: (by) => remote.advance(by), now: remote.now },
    ...controls(client, () => remote.settle()),
    webhooks,
    close: () => remote.close(),
  };
}

export interface RunScenarioOptions extends Pick<ScenarioRunOptions, 'seed' | 'remote'> {
  /** Throw an Error with the failure's diff when the scenario fails. Default false. */
  throwOnFailure?: boolean;
}

/** A scenario result with a verdict and, when it failed, the readable diff. */
export type ScenarioOutcome = ScenarioResult & { ok: boolean; failure?: string };

/**
 * Run one scenario in its own in-process sandbox (or against `remote`): a file path (.yaml, .yml, .json), YAML text,
 * or the scenario as an object. Invalid input throws ScenarioFileError (with line and column).
 */
export async function runScenario(
  fileOrObject: string | object,
  opts: RunScenarioOptions = {},
): Promise<ScenarioOutcome> {
  const scenario =
    typeof fileOrObject !== 'string'
      ? scenarioFromObject(fileOrObject)
      : /\.(ya?ml|json)$/i.test(fileOrObject) && !fileOrObject.includes('\n')
        ? parseScenario(await readFile(fileOrObject, 'utf8'), fileOrObject)
        : parseScenario(fileOrObject);
  const result = await runOneScenario(scenario, { seed: opts.seed, remote: opts.remote });
  const ok = result.status === 'passed';
  const failure = ok ? undefined : renderFailure(result) || result.error;
  if (!ok && opts.throwOnFailure) throw new Error(`scenario "${result.name}" ${result.status}:\n${failure ?? ''}`);
  return { ...result, ok, ...(failure ? { failure } : {}) };
}
