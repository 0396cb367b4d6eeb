// TLS trust without a transport: the `ca` option's certificates as a list of PEM strings, and telling a certificate
// the client does not trust from a transient connection failure (it is never retried: trying again cannot change
// it). No undici here, so the CLI's error report and its node:https transport can use it cheaply.

/** PEM certificate(s): one string or buffer (which may hold several), or a list. */
export type CaCertificates = string | Buffer | ReadonlyArray<string | Buffer>;

/** The `ca` option as a list of PEM strings. */
export function caList(ca: CaCertificates): string[] {
  const list = typeof ca === 'string' || Buffer.isBuffer(ca) ? [ca] : [...ca];
  return list.map((c) => c.toString());
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
