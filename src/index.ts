// The package entry: the typed client, plus the in-process sandbox for tests. Narrower entries: paygate/client,
// paygate/emulator, paygate/contract, paygate/webhooks.
export * from './client/index.js';
export { createSandbox, startSandbox } from './emulator/index.js';
export type { Sandbox, SandboxOptions, RunningSandbox } from './emulator/index.js';
