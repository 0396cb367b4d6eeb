// Short-lived signed links (receipt downloads, spec §2.4 receipt_url): `${path}?expires=<unix s>&signature=<sig>`
// where sig is the base64url HMAC-SHA256 of the path and expiry. Time is the caller's (the sandbox clock).
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedPathCheck = { ok: true } | { ok: false; reason: 'missing' | 'expired' | 'bad_signature' };

/** Bytes of what is signed: the path and the expiry, one per line. */
function mac(path: string, expires: string, secret: Uint8Array | string): string {
  if (secret.length === 0) throw new TypeError('signed-url: the secret must not be empty');
  return createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url');
}

function assertPath(path: string): void {
  if (!path.startsWith('/') || /[?#]/.test(path)) {
    throw new TypeError(
      `signed-url: expected a bare absolute path without query or fragment, got ${JSON.stringify(path)}`,
    );
  }
}

/**
 * Sign `path` (absolute, no query) until `expiresAtMs` (epoch ms, sandbox time). The expiry is carried in whole
 * seconds, rounded down, so a link never outlives the time asked for.
 */
export function signPath(path: string, expiresAtMs: number, secret: Uint8Array | string): string {
  assertPath(path);
  if (!Number.isFinite(expiresAtMs) || expiresAtMs < 0) throw new RangeError(`signed-url: bad expiry ${expiresAtMs}`);
  const expires = String(Math.floor(expiresAtMs / 1000));
  return `${path}?expires=${expires}&signature=${mac(path, expires, secret)}`;
}

/**
 * Check a signed link: `path` as requested (without query), its query, and the sandbox time now (epoch ms).
 * The signature is checked before the expiry, so a tampered link is bad_signature, never expired. A link is valid
 * while now < expires·1000: at the expiry instant itself it has expired.
 */
export function verifySignedPath(
  path: string,
  query: URLSearchParams,
  nowMs: number,
  secret: Uint8Array | string,
): SignedPathCheck {
  const expiresAll = query.getAll('expires');
  const signatureAll = query.getAll('signature');
  const [expires] = expiresAll;
  const [signature] = signatureAll;
  if (!expires || !signature) return { ok: false, reason: 'missing' };
  if (expiresAll.length > 1 || signatureAll.length > 1 || !/^\d{1,15}$/.test(expires)) {
    return { ok: false, reason: 'bad_signature' };
  }
  const expected = Buffer.from(mac(path, expires, secret), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad_signature' };
  if (nowMs >= Number(expires) * 1000) return { ok: false, reason: 'expired' };
  return { ok: true };
}
