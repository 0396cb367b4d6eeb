// The service of an opened store, wired at construction: the sandbox clock (its advance subscribers), the webhook outbox (the pipeline's extend
// stage and its scheduler), a workspace's guard (the admit stage) and the GatewayService they are given to; then
// initialised (seeded, timers re-armed). Called by createInstance (src/emulator/sandbox.ts).
import type { WorldIndex } from '../domain/world.js';
import type { Store } from '../store/store.js';
import type { OpenedState } from './open-state.js';
import { SandboxClock } from './runtime/clock.js';
import { GatewayService } from './runtime/service.js';
import { signPath } from './receipts/signed-url.js';
import { RECEIPT_URL_TTL_MS } from './app.js';
import { WebhookOutbox } from './webhook-outbox/outbox.js';
import { retainPdfReader } from './receipts/pdf-reader.js';
import { WorkspaceGuard } from './workspaces/guard.js';
import { AmountReadGate } from './runtime/amount-reads.js';
import { FaultInjector } from './faults/injector.js';
import type { ParsedFault } from './faults/rules.js';
import type { SandboxOptions, SandboxUrls } from './sandbox-types.js';

/** A workspace's guard: its operation limit at the pipeline's admit stage, its keys and clock seeded. */
function workspaceGuard(
  store: Store,
  clock: SandboxClock,
  guard: NonNullable<SandboxOptions['guard']>,
): WorkspaceGuard {
  const clockMeta = () => ({ id: 'clock', now: clock.now(), offset: clock.now() - Date.now() });
  return new WorkspaceGuard(() => store.state, clockMeta, guard);
}

/** The service of an opened store, with its clock and webhook outbox, initialised (seeded, timers re-armed). */
export async function startService(
  opts: SandboxOptions,
  index: WorldIndex,
  opened: OpenedState,
  urls: SandboxUrls,
  log: (line: string) => void,
  fixtureFaults: readonly ParsedFault[],
) {
  const { store, files, secrets, start, closeBackend } = opened;
  const clock = new SandboxClock({
    frozen: opts.frozenClock ?? false,
    ...(start !== undefined ? { start } : {}),
    ...(opts.realNow ? { realNow: opts.realNow } : {}),
    onError: (e) => log(`timer failed: ${String((e as Error)?.stack ?? e)}`),
    // An advance applies to every change accepted before it (their timers are armed once written); where the clock
    // then stands is recorded, so a restart resumes from it.
    advance: [{ before: () => store.sync(), after: () => service!.recordClock() }],
  });
  const releasePdfReader = retainPdfReader();
  // The outbox writes through the service's pipeline, which it is a stage of: it reaches it through this binding.
  let service: GatewayService | undefined;
  const evidence = () => ({
    available: service!.evidenceAvailable,
    signFile: (fileId: string) =>
      `${urls.storage}${signPath(`/receipts/${fileId}`, clock.now() + RECEIPT_URL_TTL_MS, secrets.url)}`,
  });
  const outbox = new WebhookOutbox(
    { store, clock, world: index, commit: (changes) => service!.commit(changes) },
    evidence,
    {
      ...(opts.webhookUrl ? { url: opts.webhookUrl } : {}),
      ...(opts.webhookTimeoutMs !== undefined ? { attemptTimeoutMs: opts.webhookTimeoutMs } : {}),
      ...(opts.webhookDispatcher ? { dispatcher: opts.webhookDispatcher } : {}),
      log,
    },
  );
  const guard = opts.guard ? workspaceGuard(store, clock, opts.guard) : undefined;
  // In-memory request gates of the app, forgotten on a reset: the amount-read limits and the injected faults.
  const amountReads = new AmountReadGate(clock, () => service!.readSettings());
  const faults = new FaultInjector(
    { world: index, clock, find: (shop, ref) => service!.find(shop, ref) },
    fixtureFaults,
  );
  service = new GatewayService({
    world: index,
    store,
    clock,
    files,
    linkKey: secrets.link,
    admission: guard ? [guard] : [],
    extension: outbox,
    subscribers: [outbox.scheduler],
    parts: guard ? [guard, outbox] : [outbox],
    onReset: [amountReads, faults],
    ...(guard && opts.guard
      ? {
          layoutLimits: {
            poolPayouts: opts.guard.limits.pool_payouts,
            check: (count: number) => guard.checkLayout(count),
          },
        }
      : {}),
  });
  try {
    await service.init();
  } catch (e) {
    await outbox.close();
    clock.close();
    await store.close();
    await closeBackend();
    await releasePdfReader();
    throw e;
  }
  return { service, clock, outbox, releasePdfReader, amountReads, faults };
}
