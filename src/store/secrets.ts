// The sandbox's own secrets — the key that signs receipt links and the key of flexible links' `k` credentials —
// kept beside a file store in `<store>.secrets` (0600, created on first start) so they survive a restart, and never
// in the store's snapshot or journal. An in-memory sandbox makes fresh ones.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';

export interface SandboxSecrets {
  /** Signs receipt download links (receipt_url). */
  url: Buffer;
  /** Derives each flexible link's `k` credential. */
  link: Buffer;
}

export const secretsPathFor = (storePath: string) => `${storePath}.secrets`;

/**
 * The secrets of the store at `storePath` (undefined: in memory). `legacyLinkKey` is a link key an older version kept
 * in the store itself: it is carried over so links issued before stay valid.
 */
export function loadSecrets(storePath: string | undefined, legacyLinkKey?: string): SandboxSecrets {
  if (storePath === undefined)
    return { url: randomBytes(32), link: legacyLinkKey ? Buffer.from(legacyLinkKey, 'base64') : randomBytes(32) };
  const file = secretsPathFor(storePath);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== undefined) {
    let parsed: { url_secret?: unknown; link_secret?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new Error(
        `paygate secrets file ${file} is not valid JSON. It was left untouched: restore it, or delete it (receipt links and flexible-link URLs issued so far stop working).`,
      );
    }
    if (typeof parsed.url_secret !== 'string' || typeof parsed.link_secret !== 'string') {
      throw new Error(
        `paygate secrets file ${file} lacks url_secret or link_secret. It was left untouched: restore it, or delete it (issued links stop working).`,
      );
    }
    chmodSync(file, 0o600);
    return { url: Buffer.from(parsed.url_secret, 'base64'), link: Buffer.from(parsed.link_secret, 'base64') };
  }
  const secrets = {
    url: randomBytes(32),
    link: legacyLinkKey ? Buffer.from(legacyLinkKey, 'base64') : randomBytes(32),
  };
  writeFileSync(
    file,
    `${JSON.stringify({ url_secret: secrets.url.toString('base64'), link_secret: secrets.link.toString('base64') })}\n`,
    { mode: 0o600, flag: 'wx' },
  );
  return secrets;
}
