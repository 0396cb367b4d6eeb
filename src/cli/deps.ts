// What a command's run function gets besides its options: the client (connected on demand), the output sink and
// whether it may ask the user. `processDeps` builds the real ones; tests pass their own over an in-process client.
import type { Paygate } from '../client/index.js';
import type { ConnectOptions } from './api.js';
import type { GlobalOptions } from './config.js';
import { processOutput, type Output } from './output.js';
import { canPrompt } from './prompts.js';

export interface ConnectedClient {
  client: Paygate;
  /** The base URL the client talks to, for messages. */
  baseUrl: string;
  /** The admin token resolved (flag > env > profile), for the few endpoints outside the client (cluster status). */
  adminToken?: string | undefined;
}

export interface CommandDeps {
  /**
   * The client. A command calls it where it first needs the API, so that its own flag errors come first; the CLI's
   * resolves base URL, key and admin token (flag > env > profile > default) and throws a UsageError for a missing
   * key or admin token that `need` asks for.
   */
  connect(need?: ConnectOptions): Promise<ConnectedClient>;
  output: Output;
  /** stdin and stdout are terminals: missing required flags are asked for, `sandbox reset` asks to confirm. */
  interactive: boolean;
  /**
   * How long a create may go unanswered before the CLI asks the sandbox clock, once, whether it is frozen (the
   * provider's answer then waits until the clock is advanced). Default 1000 ms.
   */
  slowAfterMs?: number;
}

/**
 * The CLI's dependencies: the client from the global options, env and profile (loaded on the first `connect`, so
 * commands that need no API never load it); the process's streams.
 */
export function processDeps(globals: GlobalOptions): CommandDeps {
  return {
    async connect(need) {
      const { connect } = await import('./api.js');
      const { client, conn } = await connect(globals, need);
      return { client, baseUrl: conn.baseUrl, adminToken: conn.adminToken };
    },
    output: processOutput,
    interactive: canPrompt(),
  };
}
