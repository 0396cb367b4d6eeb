// TLS trust for the client: the `ca` option's Agent (the given certificates trusted besides Node's bundled roots,
// e.g. the self-signed certificate of `paygate sandbox start --https`), and telling a certificate the client does not
// trust from a transient connection failure (it is never retried: trying again cannot change it).
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';

/** PEM certificate(s): one string or buffer (which may hold several), or a list. */
export type CaCertificates = string | Buffer | ReadonlyArray<string | Buffer>;

/** An undici Agent that trusts `ca` as well as Node's bundled root certificates. */
export function trustingAgent(ca: CaCertificates): Agent {
  const extra = typeof ca === 'string' || Buffer.isBuffer(ca) ? [ca] : [...ca];
  return new Agent({ connect: { ca: [...rootCertificates, ...extra.map((c) => c.toString())] } });
}

/** OpenSSL's and Node's codes for a server certificate that could not be verified or does not name the host. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The code of an untrusted-certificate failure anywhere in `err`'s cause chain, else undefined. */
export function untrustedCertificate(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNTRUSTED.has(code)) return code;
  }
  return undefined;
}
