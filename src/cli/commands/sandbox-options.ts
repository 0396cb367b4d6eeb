// The options of `paygate sandbox start`, as declared in program.ts and handed to runSandboxStart().
import { fileURLToPath } from 'node:url';

export interface SandboxStartOptions {
  /** Port to listen on; 0 picks a free one. Default 4080 (env PAYGATE_PORT). */
  port: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host: string;
  /** State file. Default `.paygate/sandbox.json` (env PAYGATE_STORE). Ignored when `inMemory`. */
  store: string;
  /** Absolute path of the world fixture file. Default: the bundled `fixtures/default.json` (env PAYGATE_FIXTURES). */
  fixtures: string;
  /** Keep state in memory only. Default false. */
  inMemory: boolean;
  /** Delete the stored state before starting. Default false. */
  reset: boolean;
  /** Stand the sandbox clock still until advanced. Default false. */
  frozenClock: boolean;
  /** fdatasync each group write (power-loss durability). Default false: writes survive a process crash. */
  fsync: boolean;
  /** A webhook URL registered for every shop. Default none. */
  webhookUrl?: string;
  /** Print the startup information as JSON instead of human text. Default false. */
  json: boolean;
}

/** The bundled fixture file, `fixtures/default.json` at the package root (two levels up from src/cli/commands too). */
export function bundledFixtures(): string {
  return fileURLToPath(new URL('../../../fixtures/default.json', import.meta.url));
}

/** Turn commander's parsed options into SandboxStartOptions, filling the defaults commander cannot know. */
export function sandboxStartOptions(opts: Record<string, unknown>): SandboxStartOptions {
  return {
    port: typeof opts.port === 'number' ? opts.port : 4080,
    host: typeof opts.host === 'string' ? opts.host : '127.0.0.1',
    store: typeof opts.store === 'string' ? opts.store : '.paygate/sandbox.json',
    fixtures: typeof opts.fixtures === 'string' ? opts.fixtures : bundledFixtures(),
    inMemory: opts.inMemory === true,
    reset: opts.reset === true,
    frozenClock: opts.frozenClock === true,
    fsync: opts.fsync === true,
    ...(typeof opts.webhookUrl === 'string' ? { webhookUrl: opts.webhookUrl } : {}),
    json: opts.json === true,
  };
}
