// Where a scenario runs: its own in-process sandbox (the default: isolated, no port, the scenario's fixtures and
// clock), or a sandbox (or any server speaking the spec) at a base URL. Either way the runner sends WHATWG Requests
// and reads Responses; the target supplies the credentials, the webhook receiver and what it knows of the clock.
import { dirname, isAbsolute, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Scenario } from './format.js';
import { WebhookReceiver } from './receiver.js';
import { TargetUnreachableError } from './errors.js';

/** How to reach a running sandbox instead of starting one per scenario. */
export interface RemoteOptions {
  /** Base URL of the sandbox or gateway, e.g. http://127.0.0.1:4080. */
  baseUrl: string;
  /** API key of the scenario's default shop. Default: the fixture file's key of that shop. */
  apiKey?: string | undefined;
  /** API keys by shop id (for steps with `as:`). Default: the fixture file's keys. */
  keys?: Record<string, string> | undefined;
  /** X-Admin-Token for the sandbox controls that need it. Default: none (those steps then fail with 401). */
  adminToken?: string | undefined;
  /**
   * Reset the sandbox (control `sandbox.reset`, admin token) before each scenario, so each starts from the fixtures
   * as it would in process. Default true when an admin token is given.
   */
  reset?: boolean | undefined;
}

export interface ClockInfo {
  now: number;
  frozen: boolean;
  pendingTimers: number;
  /** Sandbox time of the earliest pending timer, when the target tells it. */
  nextTimerAt?: number | undefined;
}

export interface Target {
  readonly mode: 'in-process' | 'remote';
  readonly baseUrl: string;
  /** The sandbox holds nothing but this scenario's doings (in process, or reset before it). */
  readonly fresh: boolean;
  readonly receiver: WebhookReceiver;
  readonly adminToken: string | undefined;
  /** The shop steps act as unless they say `as:`. */
  readonly defaultShop: string;
  send(request: Request): Promise<Response>;
  keyOf(shop: string): string | undefined;
  /** The sandbox clock, when the target shows it (in process; remote: the `clock.show` control, admin token). */
  clockState(): Promise<ClockInfo | undefined>;
  /**
   * Wait until every webhook delivery started so far has been answered (in process). Remote: until `enough()` says
   * the expected events are in (at most 5 s), then until none has arrived for 150 ms.
   */
  settleWebhooks(enough?: () => boolean): Promise<void>;
  close(): Promise<void>;
}

/** Whether any step needs the webhook receiver. */
export function needsWebhooks(s: Scenario): boolean {
  return s.steps.some((st) => st.kind === 'receiver' || st.expect?.webhooks !== undefined);
}

function fixturePath(s: Scenario): string | undefined {
  if (s.fixtures === 'default') return undefined;
  return isAbsolute(s.fixtures) ? s.fixtures : resolve(s.file ? dirname(s.file) : process.cwd(), s.fixtures);
}

/** How long, in real time, a step against a running sandbox waits for the webhooks it expects. */
const REMOTE_WEBHOOK_WAIT_MS = 5000;

const turn = () => new Promise<void>((r) => setImmediate(r));

/** A fresh sandbox in this process for one scenario. */
export async function inProcessTarget(s: Scenario): Promise<Target> {
  const [{ createSandbox }, { createInProcessDispatcher }] = await Promise.all([
    import('../emulator/sandbox.js'),
    import('../client/in-process.js'),
  ]);
  const receiver = new WebhookReceiver();
  const hooks = needsWebhooks(s);
  const sandbox = await createSandbox({
    ...(fixturePath(s) ? { fixtures: fixturePath(s) } : {}),
    frozenClock: s.clock === 'frozen',
    startTime: s.startTime,
    adminToken: `pg_admin_${randomBytes(8).toString('hex')}`,
    webhookDispatcher: createInProcessDispatcher(receiver),
    ...(hooks ? { webhookUrl: 'http://receiver.scenario/hooks' } : {}),
    log: () => {},
  });
  if (sandbox.webhookSecret) receiver.addSecret(sandbox.webhookSecret);
  const keys = new Map(sandbox.demo.shops.map((shop) => [shop.id, shop.api_key]));
  return {
    mode: 'in-process',
    baseUrl: sandbox.urls.base,
    fresh: true,
    receiver,
    adminToken: sandbox.adminToken,
    defaultShop: s.shop ?? sandbox.demo.shops[0]?.id ?? '',
    send: (request) => sandbox.fetch(request),
    keyOf: (shop) => keys.get(shop),
    clockState: async () => ({
      now: sandbox.clock.now(),
      frozen: sandbox.clock.frozen,
      pendingTimers: sandbox.clock.pendingTimers(),
      nextTimerAt: sandbox.clock.nextTimerAt(),
    }),
    async settleWebhooks() {
      await turn();
      await sandbox.webhooks.idle();
    },
    close: () => sandbox.close(),
  };
}

/** The fixture file's first live key of each shop (the keys a sandbox started with those fixtures has). */
function fixtureKeys(path: string | undefined): { keys: Map<string, string>; firstShop: string | undefined } {
  const file = path ?? new URL('../../fixtures/default.json', import.meta.url);
  try {
    const world = JSON.parse(readFileSync(file, 'utf8')) as {
      shops?: { id: string }[];
      api_keys?: { shop_id: string; key: string; revoked?: boolean }[];
    };
    const keys = new Map<string, string>();
    for (const k of world.api_keys ?? []) if (!k.revoked && !keys.has(k.shop_id)) keys.set(k.shop_id, k.key);
    return { keys, firstShop: world.shops?.[0]?.id };
  } catch {
    return { keys: new Map(), firstShop: undefined };
  }
}

/** The clock of a running sandbox via `clock.show` (needs the admin token); undefined when it does not say. */
async function remoteClock(target: Target): Promise<ClockInfo | undefined> {
  if (!target.adminToken) return undefined;
  const { callById } = await import('./http.js');
  const res = await callById(target, 'clock.show', {}, target.defaultShop).catch(() => undefined);
  const body = res?.body as
    { now?: string; frozen?: boolean; pending_timers?: number; next_timer_at?: string | null } | undefined;
  if (res?.status !== 200 || typeof body?.now !== 'string') return undefined;
  return {
    now: Date.parse(body.now),
    frozen: body.frozen === true,
    pendingTimers: body.pending_timers ?? 0,
    nextTimerAt: typeof body.next_timer_at === 'string' ? Date.parse(body.next_timer_at) : undefined,
  };
}

/** Check that a base URL answers at all (any HTTP status will do); throws TargetUnreachableError otherwise. */
export async function probe(baseUrl: string, timeoutMs = 5000): Promise<void> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/livez`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new TargetUnreachableError(
      `cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
    );
  }
}

/** A running sandbox at a base URL; with webhook steps, a receiver on 127.0.0.1 registered for the shops used. */
export async function remoteTarget(s: Scenario, opts: RemoteOptions): Promise<Target> {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const fixtures = fixtureKeys(fixturePath(s));
  const defaultShop = s.shop ?? fixtures.firstShop ?? 'shop_a';
  const keys = new Map([...fixtures.keys, ...Object.entries(opts.keys ?? {})]);
  // The general key (--api-key, PAYGATE_API_KEY) acts as the scenario's shop unless --key names that shop's own.
  if (opts.apiKey && !Object.hasOwn(opts.keys ?? {}, defaultShop)) keys.set(defaultShop, opts.apiKey);
  const receiver = new WebhookReceiver();
  const target: Target = {
    mode: 'remote',
    baseUrl: base,
    fresh: false,
    receiver,
    adminToken: opts.adminToken,
    defaultShop,
    send: (request) => fetch(request),
    keyOf: (shop) => keys.get(shop),
    clockState: () => remoteClock(target),
    async settleWebhooks(enough) {
      // Another process delivers: wait for what is expected (bounded), then until nothing new arrives for a moment.
      const deadline = Date.now() + REMOTE_WEBHOOK_WAIT_MS;
      while (enough && !enough() && Date.now() < deadline) await receiver.nextDelivery(deadline - Date.now());
      for (let before = -1; before !== receiver.accepted.length && Date.now() < deadline;) {
        before = receiver.accepted.length;
        await receiver.nextDelivery(150);
      }
    },
    close: () => receiver.close(),
  };
  const fresh = opts.reset !== false && opts.adminToken ? await resetRemote(target) : target;
  if (!needsWebhooks(s)) return fresh;
  const { registerReceiver } = await import('./remote-webhooks.js');
  return registerReceiver(fresh, s);
}

async function resetRemote(target: Target): Promise<Target> {
  const { callById } = await import('./http.js');
  const res = await callById(target, 'sandbox.reset', {}, target.defaultShop);
  if (res.status !== 200)
    throw new Error(
      `could not reset the sandbox before the scenario: sandbox.reset answered ${res.status} ${JSON.stringify(res.body)}`,
    );
  return { ...target, fresh: true };
}
