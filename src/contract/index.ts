// The wire contract of the gateway and of the sandbox's controls: every request and response schema and both
// endpoint tables, shared by the emulator and the client.
export * from './common.js';
export * from './money.js';
export * from './operations.js';
export * from './links.js';
export * from './balances.js';
export * from './availability.js';
export * from './endpoint-row.js';
export * from './endpoints.js';
export * from './sandbox.js';
export * from './sandbox-webhooks.js';
export * from './controls.js';
export * from './webhook-event.js';
export * from './duration.js';
export * from './duration-schema.js';
export { buildOpenApiDocument } from './openapi.js';
export * from './faults.js';
export * from './workspaces.js';
