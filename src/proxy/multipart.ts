// A multipart/form-data body the proxy kept (a receipt upload), split into its text fields and its file, for the
// recorder. Read with @fastify/busboy, as the sandbox reads uploads.
import { Busboy, type BusboyInstance } from '@fastify/busboy';

export interface FormParts {
  fields: Record<string, string>;
  file?: { field: string; filename: string; contentType: string; bytes: Buffer };
}

export function parseMultipart(body: Buffer, contentType: string): Promise<FormParts> {
  return new Promise((resolve, reject) => {
    const parts: FormParts = { fields: {} };
    let bb: BusboyInstance;
    try {
      bb = new Busboy({ headers: { 'content-type': contentType }, limits: { fileSize: body.length + 1 } });
    } catch (e) {
      reject(e as Error);
      return;
    }
    bb.on('field', (name: string, value: string) => (parts.fields[name] = value));
    bb.on('file', (field: string, stream: NodeJS.ReadableStream, filename: string, _enc: string, mime: string) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        parts.file ??= { field, filename: filename || 'receipt', contentType: mime, bytes: Buffer.concat(chunks) };
      });
    });
    bb.on('finish', () => resolve(parts));
    bb.on('error', reject);
    bb.end(body);
  });
}
