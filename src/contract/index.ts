// The wire contract of the gateway: every request and response schema, shared by the emulator and the client.
export * from './common.js';
export * from './money.js';
export * from './operations.js';
export * from './links.js';
export * from './balances.js';
export * from './availability.js';
export * from './endpoints.js';
export * from './duration.js';
export { buildOpenApiDocument } from './openapi.js';
