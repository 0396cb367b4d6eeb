// cancel_operation's reason is limited to 2048 BYTES of UTF-8 (spec §4.7, §8), not characters. The
// document's maxLength counts characters, so its description says so; the client checks the byte length before it
// sends anything, with the contract's limit; the contract counts bytes without Buffer, as TextEncoder writes them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PaygateError } from '../../src/client/index.js';
import { MAX_REASON_BYTES } from '../../src/client/resources/operations.js';
import {
  buildOpenApiDocument,
  CancelOperationRequest,
  MAX_CANCEL_REASON_BYTES,
  utf8ByteLength,
} from '../../src/contract/index.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ frozenClock: true });
const UUID = '00000000-0000-4000-8000-000000000000';

describe('cancel_operation reason: 2048 bytes, not characters', () => {
  it('the client refuses 1,025 Cyrillic characters (2,050 bytes) and an emoji over the limit without sending anything', async () => {
    const before = sandbox.served();
    for (const reason of ['й'.repeat(1025), '😀'.repeat(513), `${'x'.repeat(2047)}é`]) {
      const err = await sandbox.client.operations.cancel({ operation_id: UUID, reason }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PaygateError);
      expect((err as Error).message).toContain('at most 2048 bytes (not characters)');
    }
    expect(sandbox.served()).toBe(before);
  });

  it('the client sends 1,024 Cyrillic characters (2,048 bytes): the server decides (here 404, an unknown id)', async () => {
    const before = sandbox.served();
    const err = await sandbox.client.operations.cancel({ operation_id: UUID, reason: 'й'.repeat(1024) }).then(
      () => undefined,
      (e: unknown) => e as { status?: number },
    );
    expect(err?.status).toBe(404);
    expect(sandbox.served()).toBe(before + 1);
  });

  it("the document's description says the limit is bytes and that maxLength only bounds it", () => {
    const doc = buildOpenApiDocument() as {
      components: { schemas: Record<string, { oneOf: { properties: { reason: Record<string, unknown> } }[] }> };
    };
    for (const variant of doc.components.schemas.CancelOperationRequest!.oneOf) {
      const reason = variant.properties.reason;
      expect(reason.maxLength).toBe(2048);
      expect(reason['x-paygate-max-bytes']).toBe(2048);
      expect(reason.description).toContain('2048 bytes of UTF-8');
      expect(reason.description).toContain('1,025 Cyrillic characters (2,050 bytes) pass it and are refused with 400');
    }
  });

  it("the client's limit is the contract's, and the contract counts UTF-8 bytes (lone surrogates as U+FFFD)", () => {
    expect(MAX_REASON_BYTES).toBe(MAX_CANCEL_REASON_BYTES);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => utf8ByteLength(s) === Buffer.byteLength(s, 'utf8')));
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'й', '€', '😀', '\ud800') }),
        (s) => utf8ByteLength(s) === Buffer.byteLength(s, 'utf8'),
      ),
    );
    expect(CancelOperationRequest.safeParse({ operation_id: UUID, reason: 'й'.repeat(1024) }).success).toBe(true);
    expect(CancelOperationRequest.safeParse({ operation_id: UUID, reason: 'й'.repeat(1025) }).success).toBe(false);
  });
});
