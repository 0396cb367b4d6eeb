// Owns the lifecycle of the sandboxes a suite runs against: useSandbox() opens one before each test (or once for the
// enclosing describe or file), in-process or listening on 127.0.0.1:0, hands out Paygate clients on the same transport,
// and closes clients and sandbox afterwards; useSandboxes() opens more inside a test and closes them after it;
// timerArmed() waits, without sleeping, until the sandbox clock has armed a timer.
import type { Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { Paygate, type ClientOptions } from '../../src/client/index.js';
import type { Sandbox, SandboxOptions } from '../../src/emulator/index.js';
import { useCleanup } from './cleanup.js';
import { harness, type Harness } from './harness.js';
import { dispatcherFor, instantSleep, type Transport } from './transport.js';

export interface SandboxUnderTest extends Harness {
  /** Shop A's API key (the demo shop `shop_a`), no admin token. */
  readonly client: Paygate;
  /** The sandbox's admin token, no API key. */
  readonly admin: Paygate;
  /** Another client on the same transport (base URL, dispatcher and an instant retry sleep filled in). */
  make(options?: Partial<ClientOptions>): Paygate;
  /** The API key of a demo shop. */
  keyOf(shopId: string): string;
}

export interface UseSandboxOptions extends SandboxOptions {
  /** Default 'in-process'. */
  transport?: Transport;
  /** 'test' (default): a fresh sandbox for each test. 'file': one for the enclosing describe, or the file at top level. */
  per?: 'test' | 'file';
}

/** Open a sandbox now; the caller closes it (clients first, then the sandbox). */
export async function openSandbox(opts: UseSandboxOptions = {}): Promise<SandboxUnderTest> {
  const { transport = 'in-process', per: _per, ...options } = opts;
  const h = await harness(transport, options);
  let dispatcher: Dispatcher | undefined;
  const clientOptions = (): ClientOptions => {
    dispatcher ??= dispatcherFor(transport, h.handler);
    return {
      baseUrl: transport === 'http' ? h.baseUrl : 'http://sandbox.local',
      dispatcher,
      sleep: instantSleep().sleep,
    };
  };
  const keyOf = (shopId: string): string => {
    const shop = h.sandbox.demo.shops.find((s) => s.id === shopId);
    if (!shop) throw new Error(`no demo shop ${shopId}`);
    return shop.api_key;
  };
  const make = (options: Partial<ClientOptions> = {}) => new Paygate({ ...clientOptions(), ...options });
  let client: Paygate | undefined;
  let admin: Paygate | undefined;
  return {
    ...h,
    get client() {
      return (client ??= make({ apiKey: keyOf('shop_a') }));
    },
    get admin() {
      return (admin ??= make({ adminToken: h.sandbox.adminToken }));
    },
    make,
    keyOf,
    close: async () => {
      try {
        await dispatcher?.close();
      } finally {
        await h.close();
      }
    },
  };
}

/**
 * A sandbox for each test (or, with `per: 'file'`, one for the enclosing describe, or the file at top level), closed
 * after it. `opts` may be a function, called before each test (per test only), for options made fresh each time.
 * Returns a view of the current sandbox: read its members inside tests and hooks, not while the suite is defined.
 */
export function useSandbox(opts: UseSandboxOptions | (() => UseSandboxOptions) = {}): SandboxUnderTest {
  const fixed = typeof opts === 'function' ? undefined : opts;
  let current: SandboxUnderTest | undefined;
  let transport = fixed?.transport ?? 'in-process';
  const [before, after] = fixed?.per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    const o = typeof opts === 'function' ? opts() : opts;
    transport = o.transport ?? 'in-process';
    current = await openSandbox(o);
  });
  after(async () => {
    const open = current;
    current = undefined;
    await open?.close();
  });
  return new Proxy({} as SandboxUnderTest, {
    get(_target, prop) {
      if (prop === 'transport') return transport;
      if (!current) throw new Error(`useSandbox: read .${String(prop)} inside a test or hook`);
      const value: unknown = Reflect.get(current, prop);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/**
 * `open(opts)` opens a sandbox inside a test; every one opened is closed after that test. Pass the `defer` of a
 * useCleanup() to share its stack (e.g. a temp dir deferred before the sandbox is removed after it is closed).
 */
export function useSandboxes(
  defer: (fn: () => unknown) => void = useCleanup(),
): (opts?: UseSandboxOptions) => Promise<SandboxUnderTest> {
  return async (opts = {}) => {
    const sb = await openSandbox(opts);
    defer(() => sb.close());
    return sb;
  };
}

/**
 * Resolves once the sandbox clock holds more than `above` pending timers (default: as many as it holds now), i.e.
 * once a request in flight has reached the sandbox and armed its timer. Event-driven: no polling, no sleep.
 */
export function timerArmed(sandbox: Sandbox, above = sandbox.clock.pendingTimers()): Promise<void> {
  const clock = sandbox.clock;
  if (clock.pendingTimers() > above) return Promise.resolve();
  return new Promise((resolve) => {
    const own = Object.prototype.hasOwnProperty.call(clock, 'schedule');
    const original = clock.schedule;
    clock.schedule = function (this: typeof clock, ...args: Parameters<typeof original>) {
      original.apply(this, args);
      if (clock.pendingTimers() <= above) return;
      if (own) clock.schedule = original;
      else delete (clock as Partial<typeof clock>).schedule;
      resolve();
    };
  });
}
