// `paygate openapi`: the OpenAPI 3.1 document generated from the contract, 2-space indented.
export async function openapi(version: string): Promise<void> {
  const { buildOpenApiDocument } = await import('../../contract/openapi.js');
  process.stdout.write(`${JSON.stringify(buildOpenApiDocument(version), null, 2)}\n`);
}
