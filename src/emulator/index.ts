// Public entry of the emulator: createSandbox / startSandbox and their types.
export { createSandbox, startSandbox } from './sandbox.js';
export type {
  Sandbox,
  SandboxOptions,
  RunningSandbox,
  DemoInfo,
  DemoShop,
  SandboxUrls,
  SandboxWebhooks,
} from './sandbox.js';
export type { SandboxTls } from './tls.js';
export { SandboxClock } from './runtime/clock.js';
