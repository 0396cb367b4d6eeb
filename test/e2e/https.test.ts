// HTTPS (spec §2.4: receipt_url is an HTTPS URL): `https` serves the API, pages and receipt files over TLS
// with a self-signed certificate made on the first start and kept beside the store (key 0600), reused on later
// starts; a client trusts it with `ca` and fails at once, saying why, without. `publicUrl` is the base of every URL
// the sandbox returns. Real sockets on 127.0.0.1:0, stores in temp dirs.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { APIConnectionError, Paygate, createInProcessDispatcher } from '../../src/client/index.js';
import { createSandbox, startSandbox, type Sandbox } from '../../src/emulator/index.js';
import { trustingAgent } from '../../src/client/tls.js';
import { startSandbox as startTestSandbox } from '../../src/testing/index.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { KEY_A, KEY_POOL } from '../helpers/harness.js';

// Each first start generates two RSA keys (listhen, node-forge): about a second on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const defer = useCleanup();
const RECEIPT = 'fixtures/receipts/ok-1500.pdf';
const quiet = { log: () => {}, frozenClock: true, adminToken: 'adm' } as const;
const link = { client_id: 'payer', method: 'WT_RUB_C2C', amount: '1500.00', currency: 'RUB' } as const;

async function started(opts: Parameters<typeof startSandbox>[0]) {
  const running = await startSandbox({ ...quiet, ...opts });
  defer(() => running.close());
  return running;
}

/** The certificate the server at `url` presents, as its SHA-256 fingerprint (no verification: just look). */
function servedFingerprint(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.once('error', reject);
  });
}

/** A payment link, paid with a receipt upload (reviewed if the check asks for it): its payment_url and receipt_url. */
async function paidWithReceipt(client: Paygate): Promise<{ paymentUrl: string; receiptUrl: string }> {
  const op = await client.payments.createLink({ ...link, client_id: 'payer+receipt' });
  const confirmed = await client.payments.confirm({ operation_id: op.operation_id, receipt: RECEIPT });
  if (confirmed.status === 'manual_check') await client.sandbox.operations.review(op, 'approve');
  const state = await client.operations.get({ operation_id: op.operation_id });
  expect(state.status).toBe('completed');
  return { paymentUrl: op.payment_url!, receiptUrl: state.receipts[0]!.receipt_url! };
}

describe('sandbox over https', () => {
  it("keeps a new pair beside the store (key 0600), serves it, and the fingerprint is the file's", async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    const { baseUrl, sandbox } = await started({ https: true, store });
    const tls = sandbox.tls!;
    expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(tls).toMatchObject({ certPath: `${store}.cert.pem`, keyPath: `${store}.key.pem`, created: 'first start' });
    expect(statSync(tls.keyPath!).mode & 0o777).toBe(0o600);
    const x509 = new X509Certificate(readFileSync(tls.certPath));
    expect(tls.fingerprint).toBe(x509.fingerprint256);
    expect(tls.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(await servedFingerprint(baseUrl)).toBe(tls.fingerprint);
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(Date.parse(x509.validTo) - Date.now()).toBeGreaterThan(300 * 86_400_000);
  });

  it('a client with ca gets https payment_url and receipt_url and downloads the receipt; without ca it fails at once, saying why', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    const { baseUrl, sandbox } = await started({ https: true, store });
    const ca = readFileSync(sandbox.tls!.certPath, 'utf8');
    const client = new Paygate({ baseUrl, apiKey: KEY_A, ca });
    const { paymentUrl, receiptUrl } = await paidWithReceipt(client);
    expect(paymentUrl).toMatch(new RegExp(`^${baseUrl}/pay/[0-9a-f-]{36}$`));
    expect(receiptUrl.startsWith(`${baseUrl}/storage/receipts/`)).toBe(true);
    const download = await request(receiptUrl, { dispatcher: trustingAgent(ca) });
    expect(download.statusCode).toBe(200);
    expect(Buffer.from(await download.body.arrayBuffer()).equals(readFileSync(RECEIPT))).toBe(true);
    const unpaid = await client.payments.createLink({ ...link, client_id: 'payer+receipt' });
    expect(unpaid.payment_url!.startsWith(`${baseUrl}/pay/`)).toBe(true);
    const page = await request(unpaid.payment_url!, { dispatcher: trustingAgent(ca) });
    expect(page.statusCode).toBe(200);
    expect(await page.body.text()).toContain(`action="${baseUrl}/pay/${unpaid.operation_id}/receipt`);

    const untrusting = new Paygate({ baseUrl, apiKey: KEY_A, maxRetries: 2, sleep: async () => {} });
    const err = await untrusting.balances.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect((err as Error).message).toContain(
      "the server's TLS certificate is not trusted: pass its certificate as the ca option",
    );
    expect((err as Error).message).toContain('(attempt 1 of 3)'); // not retried: trying again cannot help
    expect(() => new Paygate({ baseUrl, ca, dispatcher: trustingAgent(ca) })).toThrow(/either ca or dispatcher/);
  });

  it('a second start on the store reuses the pair: same fingerprint, same files', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    const first = await startSandbox({ ...quiet, https: true, store });
    const { fingerprint, certPath } = first.sandbox.tls!;
    const cert = readFileSync(certPath, 'utf8');
    await first.close();
    const second = await started({ https: true, store });
    expect(second.sandbox.tls).toMatchObject({ fingerprint, certPath, created: undefined });
    expect(readFileSync(certPath, 'utf8')).toBe(cert);
    expect(await servedFingerprint(second.baseUrl)).toBe(fingerprint);
    expect(second.sandbox.tls!.cert).toBe(cert);
  });

  it("a kept certificate that does not name the public URL's host is replaced, and the start says why", async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    const first = await startSandbox({ ...quiet, https: true, store });
    const old = first.sandbox.tls!.fingerprint;
    await first.close();
    const second = await started({ https: true, store, publicUrl: 'https://paygate.example.test:8443' });
    expect(second.sandbox.tls!.created).toBe('the kept one does not name paygate.example.test');
    expect(second.sandbox.tls!.fingerprint).not.toBe(old);
    expect(new X509Certificate(readFileSync(`${store}.cert.pem`)).checkHost('paygate.example.test')).toBe(
      'paygate.example.test',
    );
    expect(second.sandbox.tls!.names).toContain('paygate.example.test');
  });

  it('a pair with its key missing stops the start naming both files, and the certificate is left as found', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    writeFileSync(`${store}.cert.pem`, 'not a certificate');
    const err = await startSandbox({ ...quiet, https: true, store }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'tls_invalid' });
    expect((err as Error).message).toContain(
      `${store}.cert.pem and key ${store}.key.pem: the key is missing. Delete both files`,
    );
    expect(readFileSync(`${store}.cert.pem`, 'utf8')).toBe('not a certificate');
    expect(existsSync(`${store}.key.pem`)).toBe(false);
  });

  it("a taken port is an error, not a quiet move to another port (listhen's port finder would pick one)", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    defer(() => new Promise((r) => taken.close(r)));
    const port = (taken.address() as AddressInfo).port;
    const err = await startSandbox({ ...quiet, https: true, port }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'port_unavailable', port });
    expect((err as Error).message).toBe(
      `port ${port} on 127.0.0.1 is not available for --https: it is in use, or not allowed`,
    );
  });

  it('in memory: the key is never written; the certificate is a temporary file removed on close', async () => {
    const running = await startSandbox({ ...quiet, https: true });
    const tls = running.sandbox.tls!;
    expect(tls).toMatchObject({ keyPath: undefined, created: 'in memory' });
    expect(new X509Certificate(readFileSync(tls.certPath)).fingerprint256).toBe(tls.fingerprint);
    await running.close();
    expect(existsSync(tls.certPath)).toBe(false);
  });

  it('paygate/testing startSandbox({ https }) gives an https baseUrl and the ca to trust', async () => {
    const sb = await startTestSandbox({ https: true });
    defer(() => sb.close());
    expect(sb.baseUrl).toMatch(/^https:\/\//);
    const balances = await new Paygate({ baseUrl: sb.baseUrl, apiKey: sb.keys.default, ca: sb.ca! }).balances.list();
    expect(balances.balances.length).toBeGreaterThan(0);
  });
});

describe('publicUrl', () => {
  /** Every absolute URL in a text (JSON or HTML). */
  const urlsIn = (text: string) => text.match(/https?:\/\/[^"'\s<>]+/g) ?? [];

  it('is the base of every URL the sandbox returns: payment_url, receipt_url, flexible links, page forms, webhook payloads', async () => {
    const bodies: string[] = [];
    const sandbox: Sandbox = await createSandbox({
      ...quiet,
      publicUrl: 'https://gw.example.test/paygate/',
      webhookUrl: 'http://hooks.example.test/in',
      webhookDispatcher: createInProcessDispatcher({
        fetch: async (r) => (bodies.push(await r.text()), new Response('ok')),
      }),
    });
    defer(() => sandbox.close());
    const { url } = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const base = 'https://gw.example.test/paygate';
    expect(sandbox.urls).toMatchObject({ base, paymentPage: `${base}/pay`, storage: `${base}/storage` });
    const client = new Paygate({ baseUrl: url, apiKey: KEY_A });
    const { paymentUrl, receiptUrl } = await paidWithReceipt(client);
    const unpaid = await client.payments.createLink({ ...link, client_id: 'payer+receipt' });
    const pool = new Paygate({ baseUrl: url, apiKey: KEY_POOL });
    await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['3000.00'] });
    const flexible = await pool.payments.createFlexibleLink({
      client_id: 'payer',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '2800.00',
    });
    const page = await (await fetch(`${url}/pay/${unpaid.operation_id}`)).text();
    expect(page).toContain(`action="${base}/pay/${unpaid.operation_id}/receipt`);
    const form = new FormData();
    form.set('receipt', new Blob([readFileSync(RECEIPT)], { type: 'application/pdf' }), 'r.pdf');
    const upload = await fetch(`${url}/pay/${unpaid.operation_id}/receipt`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(upload.headers.get('location')).toBe(`${base}/pay/${unpaid.operation_id}`);
    await sandbox.webhooks.idle();
    expect(paymentUrl.startsWith(`${base}/pay/`)).toBe(true);
    expect(receiptUrl.startsWith(`${base}/storage/receipts/`)).toBe(true);
    expect(flexible.payment_url?.startsWith(`${base}/pay/`)).toBe(true);
    expect(bodies.some((b) => b.includes(receiptUrl.split('?')[0]!))).toBe(true);
    const returned = [
      paymentUrl,
      receiptUrl,
      unpaid.payment_url!,
      flexible.payment_url!,
      ...urlsIn(page),
      upload.headers.get('location')!,
      ...bodies.flatMap(urlsIn),
    ];
    expect(returned.length).toBeGreaterThan(4);
    for (const u of returned) expect(u.startsWith(`${base}/`), u).toBe(true);
    // The receipt link works through the listening socket, as the proxy would forward it.
    const viaSocket = await fetch(receiptUrl.replace(base, url));
    expect(viaSocket.status).toBe(200);
  });

  it('must be an absolute http(s) URL without query, fragment or credentials', async () => {
    for (const [bad, says] of [
      ['gw.example.test', 'is not an absolute URL'],
      ['ftp://gw.example.test', 'must be an http or https URL'],
      ['https://gw.example.test/?a=1', 'must not have a query or a fragment'],
      ['https://gw.example.test/#top', 'must not have a query or a fragment'],
      ['https://user:pw@gw.example.test', 'must not carry a user name or password'],
    ] as const) {
      await expect(createSandbox({ ...quiet, publicUrl: bad })).rejects.toThrow(says);
    }
  });
});
