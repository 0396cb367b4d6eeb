// `paygate proxy --record <file>`: keeps what passed through (the Exchanges, which hold no secret, and the bytes of
// each upload) and on exit writes it as a scenario file that `paygate scenario run <file> --base-url <sandbox>
// --admin-token <token>` replays: the steps (record-steps.ts), the keys mapped to the default fixtures' shops, and a
// header comment saying so. Uploaded files are written beside it, in <file without extension>.files/.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from 'yaml';
import type { WebhookDelivery } from '../conformance/types.js';
import type { Passed } from './server.js';
import { parseMultipart } from './multipart.js';
import { PERSONAL_NOTE } from './record-personal.js';
import { mapKeys, RecordingBuilder, type Recorded } from './record-steps.js';
import { attributeWebhooks, webhookNote, type WebhookAttribution } from './record-webhooks.js';

/** How much of each body the proxy keeps while recording (an upload is replayed from it). */
export const RECORD_CAPTURE_LIMIT = 16 * 1024 * 1024;
/** How many exchanges a recording keeps; later ones are counted, not recorded. */
export const RECORD_LIMIT = 10_000;

interface Kept {
  passed: Passed['exchange'];
  /** The whole multipart body and its content type, for an upload. */
  upload?: { body: Buffer; contentType: string } | undefined;
}

/** The shop ids of the bundled default fixtures, in order. */
export function defaultShops(): string[] {
  const file = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url));
  const world = JSON.parse(readFileSync(file, 'utf8')) as { shops: { id: string }[] };
  return world.shops.map((s) => s.id);
}

export interface Recorder {
  add(passed: Passed): void;
  /** A webhook delivery the proxy received (with --forward-webhooks-to): its event is expected on its step. */
  addWebhook(delivery: WebhookDelivery): void;
  /** What createProxy needs to feed it: the capture limit, the exchanges and the webhook deliveries. */
  readonly proxyOptions: {
    captureLimit: number;
    onExchange: (passed: Passed) => void;
    onWebhook: (delivery: WebhookDelivery) => void;
  };
  /** Write the scenario file (and the uploads beside it). */
  write(file: string): Promise<{ steps: number; skipped: number }>;
}

export interface RecorderOptions {
  upstream: URL;
  /** The sandbox's shops the keys are mapped to. Default: the bundled default fixtures' shops. */
  shops?: readonly string[];
  /**
   * Asks the upstream whose an operation is, with the caller's key (a paygate answers `shop_id` at
   * GET /sandbox/operations/:id; another gateway does not). The key is used for that one request and not kept.
   */
  shopOf?: (operationId: string, key: string) => Promise<string | undefined>;
  /** The proxy forwards the upstream's webhooks (--forward-webhooks-to): write `expect.webhooks` from them. */
  webhooks?: boolean | undefined;
}

export function createRecorder(opts: RecorderOptions): Recorder {
  const kept: Kept[] = [];
  const deliveries: WebhookDelivery[] = [];
  let dropped = 0;
  const named = new Map<string, string>();
  const asked = new Map<string, Promise<void>>();
  /** Once per credential: the shop the upstream names for the first operation answered to it. */
  const ask = (credential: string, key: string, operationId: string) => {
    if (!opts.shopOf || asked.has(credential)) return;
    const done = opts
      .shopOf(operationId, key)
      .then((shop) => void (shop !== undefined && named.set(credential, shop)))
      .catch(() => undefined);
    asked.set(credential, done);
  };
  const started = new Date();
  const recorder: Recorder = {
    proxyOptions: {
      captureLimit: RECORD_CAPTURE_LIMIT,
      onExchange: (passed) => recorder.add(passed),
      onWebhook: (delivery) => recorder.addWebhook(delivery),
    },
    add({ exchange, request }) {
      if (kept.length >= RECORD_LIMIT) {
        dropped++;
        return;
      }
      const type = exchange.request.contentType;
      const multipart = type?.toLowerCase().startsWith('multipart/') && request.body && request.complete;
      kept.push({ passed: exchange, upload: multipart ? { body: request.body!, contentType: type! } : undefined });
      const key = request.headers['x-api-key'];
      const id = (exchange.response.body as { operation_id?: unknown } | undefined)?.operation_id;
      if (exchange.credential && typeof key === 'string' && typeof id === 'string') ask(exchange.credential, key, id);
    },
    addWebhook(delivery) {
      if (deliveries.length < RECORD_LIMIT) deliveries.push(delivery);
    },
    async write(file) {
      const items: Recorded[] = [];
      for (const k of kept) {
        const form = k.upload
          ? await parseMultipart(k.upload.body, k.upload.contentType).catch(() => undefined)
          : undefined;
        items.push({ exchange: k.passed, form });
      }
      const shops = opts.shops ?? defaultShops();
      await Promise.all(asked.values());
      const keys = mapKeys(items, shops, named);
      const firstShop = keys.find((k) => k.shop !== undefined)?.shop;
      const filesDir = `${basename(file, extname(file))}.files`;
      const b = new RecordingBuilder(keys, firstShop, filesDir);
      for (const item of items) b.add(item);
      const hooks = opts.webhooks ? attributeWebhooks(deliveries, b.moves, b.operations) : undefined;
      const doc = new Document({
        name: `Recorded through paygate proxy from ${opts.upstream.host} (${started.toISOString().slice(0, 16)}Z)`,
        ...(firstShop ? { shop: firstShop } : {}),
        ...(Object.keys(b.variables).length > 0 ? { variables: b.variables } : {}),
        steps: b.steps.length > 0 ? b.steps : [{ skip: 'nothing passed through the proxy' }],
      });
      doc.commentBefore = header(opts.upstream, items.length, dropped, keys, b, filesDir, hooks);
      await mkdir(dirname(file), { recursive: true });
      for (const f of b.files) {
        await mkdir(dirname(join(dirname(file), f.path)), { recursive: true });
        await writeFile(join(dirname(file), f.path), f.bytes);
      }
      await writeFile(file, doc.toString({ lineWidth: 0 }));
      return { steps: b.steps.length, skipped: b.skipped };
    },
  };
  return recorder;
}

function header(
  upstream: URL,
  exchanges: number,
  dropped: number,
  keys: ReturnType<typeof mapKeys>,
  b: RecordingBuilder,
  filesDir: string,
  hooks: WebhookAttribution | undefined,
): string {
  const lines = [
    ` Recorded by \`paygate proxy --record\` from ${upstream.origin}: ${exchanges} exchanges${dropped ? ` (and ${dropped} more, past the limit of ${RECORD_LIMIT}, not recorded)` : ''}.`,
    ' Replay: paygate scenario run <this file> --base-url <sandbox> --admin-token <token>',
    ' No API key is stored. Each key seen (by its fingerprint) is mapped to a shop of the default fixtures:',
    ...keys.map((k) => `   ${k.credential} → ${k.shop ?? '(none)'}: ${k.why}`),
    ` Personal data: ${PERSONAL_NOTE}.`,
    ' Moves an operation made between two exchanges are the sandbox controls that produce them (operations.pay,',
    ' operations.settle, operations.review, wait_for an expiry).',
  ];
  if (b.files.length > 0)
    lines.push(
      ` Uploaded files are copied as sent into ${filesDir}/: they may hold personal data; check them before sharing.`,
    );
  if (hooks) lines.push(...webhookNote(hooks));
  if (b.skipped > 0)
    lines.push(` ${b.skipped} steps are marked skip: the sandbox cannot reproduce them (each says why).`);
  return lines.join('\n');
}
