// `sandbox start --https`: the sandbox's self-signed certificate and its TLS listener, both from listhen. listhen's
// `listen` serves a Node handler over node:https and, given no certificate, generates one (node-forge); that first
// certificate and its key are kept beside the store (`<store>.cert.pem`, `<store>.key.pem` mode 0600) and given back to
// `listen` on later starts, as long as they are valid for another day and name every host the sandbox is reached at
// (else a new pair replaces them, and the start says why). An in-memory sandbox makes a fresh pair each start and
// writes only the certificate, to a temporary folder removed on close. The key is never logged nor printed.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { RequestListener, Server } from 'node:http';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** What a client needs to trust the sandbox, and where the certificate is. */
export interface SandboxTls {
  /** SHA-256 fingerprint of the certificate, colon-separated hex as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
  /** The certificate (PEM): what a client trusts (`new Paygate({ ca })`, `--ca`, `PAYGATE_CA`, `curl --cacert`). */
  cert: string;
  /** The certificate's file: beside the store, or a temporary file of an in-memory sandbox. */
  certPath: string;
  /** The key's file (0600), beside the store; undefined for an in-memory sandbox, whose key is never written. */
  keyPath: string | undefined;
  /** The hosts and addresses the certificate names. */
  names: string[];
  /** Expiry, RFC 3339. */
  validTo: string;
  /** Why this start made a new certificate (`first start`, `expired`, `… not named`, `in memory`); undefined when reused. */
  created: string | undefined;
}

/** Days a generated certificate is valid. */
export const CERT_VALIDITY_DAYS = 365;
/** A kept certificate expiring sooner than this is replaced at start. */
const RENEW_BEFORE_MS = 24 * 3600_000;
const ANY_HOSTS = new Set(['', '0.0.0.0', '::']);

export const certFilesFor = (storePath: string) => ({ cert: `${storePath}.cert.pem`, key: `${storePath}.key.pem` });

/** Hosts the certificate must name: the loopback names, the interface listened on and the public URL's host. */
export function certNames(host: string, publicUrl: string | undefined): string[] {
  const names = ['localhost', '127.0.0.1', '::1'];
  const add = (name: string) => {
    const bare = name.replace(/^\[(.*)\]$/, '$1');
    if (bare && !ANY_HOSTS.has(bare) && !names.includes(bare)) names.push(bare);
  };
  add(host);
  if (publicUrl) add(new URL(publicUrl).hostname);
  return names;
}

function covers(x509: X509Certificate, name: string): boolean {
  return isIP(name) ? x509.checkIP(name) !== undefined : x509.checkHost(name, { subject: 'never' }) !== undefined;
}

interface Pair {
  cert: string;
  key: string;
}

/**
 * The pair kept at `files`: `{ pair }` to reuse, `{ stale }` (why it must be replaced) or `{}` when there is none.
 * A half-present, unreadable or mismatched pair is an error naming the files: it is never silently replaced.
 */
function kept(files: { cert: string; key: string }, names: string[], now: number): { pair?: Pair; stale?: string } {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  };
  const cert = read(files.cert);
  const key = read(files.key);
  if (cert === undefined && key === undefined) return {};
  const damaged = (what: string) =>
    Object.assign(
      new Error(
        `the sandbox's TLS certificate ${files.cert} and key ${files.key}: ${what}. Delete both files to have a new pair generated (clients must then trust the new certificate).`,
      ),
      { code: 'tls_invalid' },
    );
  if (cert === undefined || key === undefined)
    throw damaged(`${cert === undefined ? 'the certificate' : 'the key'} is missing`);
  let x509: X509Certificate;
  let matches: boolean;
  try {
    x509 = new X509Certificate(cert);
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch {
    throw damaged('they are not a PEM certificate and its private key');
  }
  if (!matches) throw damaged('the key does not belong to the certificate');
  chmodSync(files.key, 0o600);
  if (Date.parse(x509.validTo) - now < RENEW_BEFORE_MS)
    return { stale: `the kept one expired ${new Date(x509.validTo).toISOString()}` };
  const missing = names.filter((n) => !covers(x509, n));
  if (missing.length > 0) return { stale: `the kept one does not name ${missing.join(', ')}` };
  return { pair: { cert, key } };
}

/** Write `text` to `path` through a temporary file, so a crash never leaves half a key. */
function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

export interface TlsListenOptions {
  port: number;
  host: string;
  /** The store the pair is kept beside; undefined: in memory. */
  store: string | undefined;
  publicUrl: string | undefined;
}

/** listhen's self-signed generation options: its `HTTPSOptions` plus the subject fields its generator reads. */
function generation(names: string[]) {
  return {
    domains: names,
    validityDays: CERT_VALIDITY_DAYS,
    commonName: 'paygate sandbox',
    organization: 'paygate sandbox (self-signed)',
    organizationalUnit: '',
    countryCode: '',
    state: '',
    locality: '',
  };
}

/**
 * listhen would not listen on `port`: taken or not allowed (get-port-please's GetPortError, which keeps no errno), or
 * one of the ports browsers block (6000, 5060, 10080, …), which it skips. An errno-like error the CLI explains.
 */
function portUnavailable(port: number, host: string, instead: number | undefined, cause?: unknown): Error {
  const why =
    instead === undefined
      ? 'it is in use, or not allowed'
      : `listhen picked port ${instead} instead (it skips the ports browsers block, such as 6000, 5060 or 10080)`;
  return Object.assign(new Error(`port ${port} on ${host} is not available for --https: ${why}`), {
    code: 'port_unavailable',
    syscall: 'listen',
    port,
    cause,
  });
}

/**
 * Listen over TLS with listhen on `port` of `host`, with the kept pair or a new one (then kept). listhen's own
 * conveniences are turned off: no URL banner, no signal handlers (the sandbox closes itself), no other port when
 * `port` is taken.
 */
export async function listenTls(
  handler: RequestListener,
  opts: TlsListenOptions,
): Promise<{ server: Server; tls: SandboxTls; dispose(): void }> {
  const names = certNames(opts.host, opts.publicUrl);
  const files = opts.store ? certFilesFor(opts.store) : undefined;
  const found = files ? kept(files, names, Date.now()) : {};
  const { listen } = await import('listhen');
  let listener: Awaited<ReturnType<typeof listen>>;
  try {
    listener = await listen(handler, {
      hostname: opts.host,
      // A taken port is an error, not a quiet move: listhen's finder would try 3000–3100, then any free port.
      port: opts.port === 0 ? 0 : { port: opts.port, random: false, alternativePortRange: [opts.port, opts.port] },
      public: ANY_HOSTS.has(opts.host),
      https: found.pair ?? generation(names),
      // isTest: no URL banner and no get-port-please lines on stdout (they would break `--json`); isProd false: with
      // NODE_ENV=production listhen's finder would turn port 0 into 3000.
      isTest: true,
      isProd: false,
      showURL: false,
      autoClose: false,
      open: false,
      clipboard: false,
      qr: false,
      tunnel: false,
    });
  } catch (e) {
    if ((e as Error)?.name === 'GetPortError') throw portUnavailable(opts.port, opts.host, undefined, e);
    throw e;
  }
  const server = listener.server;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  if (opts.port !== 0 && listener.address.port !== opts.port) {
    await close();
    throw portUnavailable(opts.port, opts.host, listener.address.port);
  }
  const pair = listener.https as Pair;
  let certPath: string;
  let keyPath: string | undefined;
  let dispose = () => {};
  try {
    if (files) {
      if (!found.pair) {
        mkdirSync(dirname(files.key), { recursive: true });
        writeAtomic(files.key, pair.key, 0o600);
        writeAtomic(files.cert, pair.cert, 0o644);
      }
      [certPath, keyPath] = [files.cert, files.key];
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'paygate-tls-'));
      certPath = join(dir, 'sandbox.cert.pem');
      writeFileSync(certPath, pair.cert);
      dispose = () => rmSync(dir, { recursive: true, force: true });
    }
  } catch (e) {
    await close();
    throw e;
  }
  const x509 = new X509Certificate(pair.cert);
  const named = (x509.subjectAltName ?? '')
    .split(', ')
    .map((n) => n.replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);
  const created = found.pair ? undefined : !files ? 'in memory' : (found.stale ?? 'first start');
  const tls: SandboxTls = {
    fingerprint: x509.fingerprint256,
    cert: pair.cert,
    certPath,
    keyPath,
    names: named,
    validTo: new Date(x509.validTo).toISOString(),
    created,
  };
  return { server, tls, dispose };
}
