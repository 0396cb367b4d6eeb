// Connects a command to the API: resolves base URL and key (flag > env > profile > default) and builds the
// typed client from src/client. Loaded only inside command actions, so undici and zod stay out of --help.
import { Paygate } from '../client/index.js';
import { resolveConnection, type Connection, type GlobalOptions } from './config.js';
import { UsageError } from './errors.js';
import { registerSecret } from './mask.js';

export interface Connected {
  client: Paygate;
  conn: Connection;
}

/** Build a client for the command. `needKey` (default true) makes a missing API key a usage error. */
export function connect(globals: GlobalOptions, { needKey = true }: { needKey?: boolean } = {}): Connected {
  const conn = resolveConnection(globals);
  registerSecret(conn.apiKey);
  if (needKey && !conn.apiKey) {
    throw new UsageError(
      'no API key',
      `pass --api-key, set PAYGATE_API_KEY, or store one with \`paygate config set api-key <key>\`${conn.profile !== 'default' ? ` --profile ${conn.profile}` : ''}`,
    );
  }
  const client = new Paygate({ baseUrl: conn.baseUrl, ...(conn.apiKey ? { apiKey: conn.apiKey } : {}) });
  return { client, conn };
}
