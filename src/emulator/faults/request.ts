// What the fault injector reads from, and does to, one request: the operation it names (from a JSON or multipart
// body the fault answers instead of the handler, or from the handler's answer), and a connection that closes
// without an answer.
import type { H3Event } from 'h3';
import { RECEIPT_LIMIT } from '../context.js';
import { JSON_BODY_LIMIT, readLimited } from '../http/body.js';
import { header } from '../http/headers.js';
import { nodeRequest } from '../http/h3-internals.js';
import type { OperationRef } from '../runtime/service.js';

const decoder = new TextDecoder();

/**
 * The operation a request body names (operation_id first, else merchant_operation_id), or undefined. Reads the body:
 * only for a request the handler will not see. Never throws.
 */
export async function peekOperationRef(event: H3Event): Promise<OperationRef | undefined> {
  if (event.req.method === 'GET') return undefined;
  try {
    const type = header(event, 'content-type') ?? '';
    if (/^multipart\/form-data\b/i.test(type)) {
      const bytes = await readLimited(event, RECEIPT_LIMIT);
      const form = await new Request('http://paygate.local/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: bytes,
      }).formData();
      const id = form.get('operation_id');
      return typeof id === 'string' ? { operation_id: id } : undefined;
    }
    const data: unknown = JSON.parse(decoder.decode(await readLimited(event, JSON_BODY_LIMIT)));
    if (typeof data !== 'object' || data === null) return undefined;
    const { operation_id: id, merchant_operation_id: moid } = data as Record<string, unknown>;
    if (typeof id === 'string') return { operation_id: id };
    if (typeof moid === 'string') return { merchant_operation_id: moid };
  } catch {
    // Unreadable: the fault answers anyway, it only cannot be shown on an operation.
  }
  return undefined;
}

/** The operation_id of a handler's answer (an operation, a cancel's `{ operation }`, a flexible link), or undefined. */
export function answeredOperationId(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || result instanceof Response) return undefined;
  const r = result as { operation_id?: unknown; operation?: { operation_id?: unknown } };
  if (typeof r.operation_id === 'string') return r.operation_id;
  return typeof r.operation?.operation_id === 'string' ? r.operation.operation_id : undefined;
}

/**
 * Close the connection without an answer. On a socket, the socket is destroyed (the client sees it close); in
 * process (sandbox.fetch), the answer's body fails before its first byte, which a fetch client reports the same way.
 */
export function dropConnection(event: H3Event, faultId: string): Response {
  nodeRequest(event)?.socket.destroy();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(
        new Error(`the sandbox closed the connection after processing the request (injected fault ${faultId})`),
      );
    },
  });
  return new Response(body, { status: 200, headers: { 'x-paygate-fault': faultId } });
}
