// startSandbox({ baseUrl, adminToken }): the test's own workspace on a shared paygate server (docs/workspaces.md)
// instead of a sandbox in this process. It is created with the server's admin token, driven over HTTP with its own
// keys and admin token, and deleted (with all its data) by close(). Its webhooks come to a receiver this process
// listens with on 127.0.0.1 (or `webhookHost`), registered for every shop of the workspace.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Paygate } from '../client/paygate.js';
import { parseDuration } from '../contract/duration.js';
import type { CreatedWorkspace } from '../contract/workspaces.js';
import { WebhookEvents } from './webhook-events.js';

/** How long a control waits, in real time, for the webhooks it caused to be delivered. */
const SETTLE_LIMIT_MS = 5000;

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Listen for the workspace's webhooks: each request is handed to `events` as a WHATWG Request. */
async function listenForWebhooks(
  events: WebhookEvents,
  host: string | undefined,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const answer = await events
        .fetch(new Request('http://receiver.local/hooks', { method: 'POST', headers, body }))
        .catch(() => new Response(null, { status: 400 }));
      res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host === undefined ? '127.0.0.1' : '0.0.0.0', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return { url: `http://${host ?? '127.0.0.1'}:${port}/hooks`, server };
}

export interface RemoteParts {
  workspace: CreatedWorkspace;
  webhooks: WebhookEvents;
  /** Sandbox time now, as last read (a running clock moves on with real time). */
  now(): number;
  advance(by: string | number): Promise<void>;
  settle(): Promise<void>;
  webhookSecret: string;
  close(): Promise<void>;
}

export interface RemoteOptions {
  baseUrl: string;
  adminToken: string;
  fixtures?: string | undefined;
  clock: 'frozen' | 'real';
  startTime?: string | number | undefined;
  limits?: { operations?: number; pool_payouts?: number } | undefined;
  webhookHost?: string | undefined;
  forwardWebhooksTo?: ((request: Request) => Response | Promise<Response>) | undefined;
}

/** Create the workspace, register the webhook receiver for its shops, and what the TestSandbox needs of it. */
export async function openRemote(opts: RemoteOptions): Promise<RemoteParts> {
  const server = new Paygate({ baseUrl: opts.baseUrl, adminToken: opts.adminToken, maxRetries: 0 });
  const start = opts.startTime === undefined ? undefined : new Date(opts.startTime).toISOString();
  const workspace = await server.request('workspaces.create', {
    body: {
      clock: opts.clock,
      ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
      ...(start ? { start_time: start } : {}),
      ...(opts.limits ? { limits: opts.limits } : {}),
    },
  });
  const remove = () => server.request('workspaces.delete', { params: { id: workspace.id } }).then(() => undefined);
  const admin = new Paygate({ baseUrl: workspace.base_url, adminToken: workspace.admin_token, maxRetries: 0 });
  let clock = { at: Date.parse(workspace.clock.now), real: Date.now(), frozen: workspace.clock.frozen };
  const now = () => clock.at + (clock.frozen ? 0 : Date.now() - clock.real);
  const secrets: string[] = [];
  const shops = Object.entries(workspace.keys).map(([shop, key]) => ({
    shop,
    client: new Paygate({ baseUrl: workspace.base_url, apiKey: key, maxRetries: 0 }),
  }));
  /** No delivery of the workspace is due and unanswered (or the limit passed). */
  const settle = async () => {
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    for (;;) {
      let due = false;
      for (const { client } of shops) {
        const page = await client.request('webhooks.deliveries', { query: { limit: 200 } });
        due ||= page.deliveries.some(
          (d) => d.status === 'pending' && d.next_attempt_at !== null && Date.parse(d.next_attempt_at) <= now(),
        );
      }
      if (!due || Date.now() > deadline) return;
      await new Promise<void>((r) => setTimeout(r, 20));
    }
  };
  const webhooks = new WebhookEvents(opts.forwardWebhooksTo);
  webhooks.attach({ secrets: () => secrets, now: () => Date.now(), idle: settle });
  let receiver: Server | undefined;
  try {
    const listening = await listenForWebhooks(webhooks, opts.webhookHost);
    receiver = listening.server;
    for (const { client } of shops)
      secrets.push((await client.request('webhooks.add', { body: { url: listening.url } })).secret);
  } catch (e) {
    receiver?.close();
    await remove().catch(() => undefined);
    throw e;
  }
  return {
    workspace,
    webhooks,
    now,
    webhookSecret: secrets[0] ?? '',
    async advance(by) {
      const ms = typeof by === 'number' ? by : parseDuration(by);
      if (ms === undefined) throw new Error(`not a duration: ${by}`);
      const state = await admin.request('clock.advance', { body: { by: ms } });
      clock = { at: Date.parse(state.now), real: Date.now(), frozen: state.frozen };
      await settle();
    },
    settle,
    async close() {
      await new Promise<void>((r) => {
        receiver!.close(() => r());
        receiver!.closeAllConnections();
      });
      await remove();
    },
  };
}
