// confirm_payment's multipart body: fields, file part, filename and content type for each receipt source, as a scripted
// gateway receives it on both transports (over HTTP on 127.0.0.1:0, and in-process).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { PaygateError } from '../../src/client/index.js';
import { OPERATION, type Recorded, type TestClient, type TestServer } from './helpers.js';
import { describeTransports } from '../helpers/transport.js';
import { useScripted } from '../helpers/scripted.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paygate-client-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Parse what the server received with the platform's own multipart parser. */
async function form(req: Recorded): Promise<FormData> {
  return new Request('http://x/', {
    method: 'POST',
    headers: { 'content-type': String(req.headers['content-type']) },
    body: req.body,
  }).formData();
}

async function filePart(req: Recorded): Promise<File> {
  const f = (await form(req)).get('receipt');
  expect(f).toBeInstanceOf(File);
  return f as File;
}

describeTransports('payments.confirm', (transport) => {
  const scripted = useScripted(transport);
  let server: TestServer;
  let t: TestClient;
  beforeEach(async () => {
    ({ server, t } = await scripted.start(() => ({
      status: 200,
      body: { ...OPERATION, status: 'manual_check', manual_check_reason: 'not_terminal' },
    })));
  });

  it('sends operation_id, confirmation_type=receipt and a PDF part from a path', async () => {
    const path = join(dir, 'check-42.pdf');
    await writeFile(path, PDF);
    const op = await t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: path });
    expect(op.status).toBe('manual_check');
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/confirm_payment');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.headers['x-api-key']).toBeDefined();
    const fd = await form(req);
    expect(fd.get('operation_id')).toBe(OPERATION.operation_id);
    expect(fd.get('confirmation_type')).toBe('receipt');
    const file = await filePart(req);
    expect(file.name).toBe('check-42.pdf');
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('bytes default to receipt.pdf; filename, contentType and confirmation_type can be set', async () => {
    await t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: new Uint8Array(PDF) });
    let file = await filePart(server.requests[0]!);
    expect(file.name).toBe('receipt.pdf');
    expect(file.type).toBe('application/pdf');
    await t.client.payments.confirm({
      operation_id: OPERATION.operation_id,
      receipt: PDF,
      filename: 'a "b".png',
      contentType: 'image/png',
      confirmation_type: 'other',
    });
    const fd = await form(server.requests[1]!);
    expect(fd.get('confirmation_type')).toBe('other');
    file = await filePart(server.requests[1]!);
    expect(file.name).toBe('a "b".png'); // sent escaped as %22, decoded by the parser
    expect(file.type).toBe('image/png');
  });

  it('a File keeps its name and type; a bare Blob gets the defaults', async () => {
    await t.client.payments.confirm({
      operation_id: OPERATION.operation_id,
      receipt: new File([PDF], 'scan.pdf', { type: 'application/pdf' }),
    });
    expect((await filePart(server.requests[0]!)).name).toBe('scan.pdf');
    await t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: new Blob([PDF]) });
    const file = await filePart(server.requests[1]!);
    expect(file.name).toBe('receipt.pdf');
    expect(file.type).toBe('application/pdf');
  });

  it('a stream is sent whole', async () => {
    const chunks = [PDF.subarray(0, 5), PDF.subarray(5)];
    await t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: Readable.from(chunks) });
    const file = await filePart(server.requests[0]!);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('a missing file fails before sending', async () => {
    const err = await t.client.payments
      .confirm({ operation_id: OPERATION.operation_id, receipt: join(dir, 'nope.pdf') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaygateError);
    expect((err as Error).message).toMatch(/cannot read receipt file/);
    expect(server.requests).toHaveLength(0);
  });

  it('an unsupported receipt value fails before sending', async () => {
    // @ts-expect-error runtime check
    await expect(t.client.payments.confirm({ operation_id: OPERATION.operation_id, receipt: 42 })).rejects.toThrow(
      /receipt must be/,
    );
    expect(server.requests).toHaveLength(0);
  });
});
