// Connects a command to the API: resolves base URL, key and admin token (flag > env > profile > default) and builds
// the typed client from src/client. Loaded only inside command actions. The client sends over node:http and checks
// bodies with the generated light checks (http-transport.ts, wire.ts), so a command that succeeds loads neither
// undici nor zod.
import { readFileSync } from 'node:fs';
import { Paygate } from '../client/paygate.js';
import { resolveConnection, type Connection, type GlobalOptions, type Source } from './config.js';
import { UsageError } from './errors.js';
import { nodeTransport } from './http-transport.js';
import { registerSecret } from './mask.js';
import { lightContract } from './wire.js';

export interface Connected {
  client: Paygate;
  conn: Connection;
}

export interface ConnectOptions {
  /** A missing API key is a usage error (the /v1 calls and the shop-scoped sandbox controls). Default true. */
  needKey?: boolean;
  /** A missing sandbox admin token is a usage error (clock, evidence, keys, pool show / settings, reset). Default false. */
  needAdminToken?: boolean;
  /**
   * What to run instead when there is no API key but an admin token is configured, e.g. `paygate balances
   * --all-shops`: the usage error then points at it.
   */
  withAdminTokenOnly?: string;
}

/** Where the admin token comes from, for the usage error of an admin command run without one. */
export const ADMIN_TOKEN_ORIGIN =
  '`paygate sandbox start` prints it (or fix it by setting PAYGATE_ADMIN_TOKEN when starting the sandbox)';

/** The certificates of the --ca / PAYGATE_CA file, checked to be PEM before anything is sent. */
async function readCa(ca: NonNullable<Connection['ca']>): Promise<string> {
  const { X509Certificate } = await import('node:crypto');
  let text: string;
  try {
    text = readFileSync(ca.path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read the ${ca.from} file ${ca.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      'give the certificate file `paygate sandbox start --https` prints',
    );
  }
  try {
    new X509Certificate(text);
  } catch {
    throw new UsageError(
      `the ${ca.from} file ${ca.path} holds no PEM certificate`,
      'give the certificate file (-----BEGIN CERTIFICATE-----), not the key',
    );
  }
  return text;
}

/** Where a credential came from, as the user would fix it: `--api-key`, `PAYGATE_API_KEY`, `api-key of profile "x"`. */
function origin(source: Source | undefined, flag: 'api-key' | 'admin-token', profile: string): string {
  if (source === 'env') return `PAYGATE_${flag.toUpperCase().replace('-', '_')}`;
  if (source === 'profile') return `${flag} of profile "${profile}"`;
  return `--${flag}`;
}

/**
 * An HTTP header carries visible ASCII only: a key with another character (a Cyrillic look-alike, a non-breaking
 * space from a copy) can never be sent, so it is bad usage naming where it came from, not a connection failure.
 */
function checkHeaderValue(value: string | undefined, what: string): void {
  if (value === undefined) return;
  const at = [...value].findIndex((c) => c < ' ' || c > '~');
  if (at < 0) return;
  const c = [...value][at]!;
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = c > '~' && c.codePointAt(0)! > 0xa0 ? `"${c}" (${code})` : code;
  throw new UsageError(
    `${what} contains a character that is not visible ASCII: ${shown} at position ${at + 1}`,
    `an HTTP header carries ASCII only: retype ${what} (a look-alike letter or a non-breaking space may have come with a copy)`,
  );
}

/** Build a client for the command; the admin token is passed whenever one is configured. */
export async function connect(
  globals: GlobalOptions,
  { needKey = true, needAdminToken = false, withAdminTokenOnly }: ConnectOptions = {},
): Promise<Connected> {
  const conn = resolveConnection(globals);
  registerSecret(conn.apiKey);
  registerSecret(conn.adminToken);
  checkHeaderValue(conn.apiKey, origin(conn.apiKeySource, 'api-key', conn.profile));
  checkHeaderValue(conn.adminToken, origin(conn.adminTokenSource, 'admin-token', conn.profile));
  const profileFlag = conn.profile !== 'default' ? ` --profile ${conn.profile}` : '';
  if (needAdminToken && !conn.adminToken) {
    throw new UsageError(
      'no sandbox admin token: this control needs X-Admin-Token',
      `pass --admin-token, set PAYGATE_ADMIN_TOKEN, or store one with \`paygate config set admin-token <token>\`${profileFlag}; ${ADMIN_TOKEN_ORIGIN}`,
    );
  }
  if (needKey && !conn.apiKey) {
    const where = `pass --api-key, set PAYGATE_API_KEY, or store one with \`paygate config set api-key <key>\`${profileFlag}`;
    if (conn.adminToken && withAdminTokenOnly) {
      throw new UsageError(
        `no API key (this reads one shop's data; the admin token alone cannot)`,
        `with the admin token, run \`${withAdminTokenOnly}\`; for one shop, ${where}`,
      );
    }
    throw new UsageError('no API key', where);
  }
  const ca = conn.ca ? await readCa(conn.ca) : undefined;
  const client = new Paygate({
    baseUrl: conn.baseUrl,
    ...(conn.apiKey ? { apiKey: conn.apiKey } : {}),
    ...(conn.adminToken ? { adminToken: conn.adminToken } : {}),
    // The streams (ops watch, logs tail) still go through undici, with the same trust.
    ...(ca !== undefined ? { ca } : {}),
    transport: nodeTransport(ca),
    contract: lightContract,
  });
  return { client, conn };
}
