// `paygate openapi` (flags: commands/top-level.ts): the OpenAPI 3.1 document generated from the contract, 2-space
// indented.
import type { OpenapiOptions } from '../top-level.js';
import type { CommandDeps } from '../../deps.js';

export async function openapi(options: OpenapiOptions, deps: CommandDeps): Promise<void> {
  const { buildOpenApiDocument } = await import('../../../contract/openapi.js');
  deps.output.json(buildOpenApiDocument(options.version));
}
