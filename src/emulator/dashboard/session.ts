// The dashboard's sessions, kept in this app's memory: the browser holds only a random session id in a cookie
// (HttpOnly, SameSite=Strict, Path=<dashboard>), never the credential. A session is the admin's (every shop) or
// one shop's (its API key, checked again on every request: a revoked key ends the session), with its own CSRF token
// and the language chosen on the switch. Bounded: at most MAX_SESSIONS (the oldest goes first), each for
// SESSION_TTL_MS of real time since it was last used.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Lang } from '../pages/i18n.js';

/** Who a session acts as: the admin (every shop, every control) or one shop, through its key. */
export type Scope = { kind: 'admin' } | { kind: 'shop'; shopId: string };

export interface Session {
  readonly id: string;
  readonly scope: Scope;
  /** The per-session token every state-changing form carries (`_csrf`). */
  readonly csrf: string;
  /** The shop key of a shop session, held here only, to check it is still valid (never sent, shown or logged). */
  readonly key: string | undefined;
  lang: Lang | undefined;
  /** Real time it was last used (ms). */
  usedAt: number;
}

export const MAX_SESSIONS = 1000;
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** The sandbox's cookie name (the proxy's is its own: a browser sends a host's cookies to every port of it). */
export const SESSION_COOKIE = 'paygate_dashboard';

const token = () => randomBytes(24).toString('base64url');

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export class Sessions {
  /** In order of last use: the first is the one to evict. */
  readonly #byId = new Map<string, Session>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = MAX_SESSIONS,
  ) {}

  get size(): number {
    return this.#byId.size;
  }

  open(scope: Scope, key: string | undefined, lang: Lang | undefined): Session {
    while (this.#byId.size >= this.max) this.#byId.delete(this.#byId.keys().next().value!);
    const session: Session = { id: token(), scope, csrf: token(), key, lang, usedAt: this.now() };
    this.#byId.set(session.id, session);
    return session;
  }

  /** The live session of the id, marked used; undefined when unknown or expired. */
  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const s = this.#byId.get(id);
    if (!s) return undefined;
    this.#byId.delete(id);
    if (this.now() - s.usedAt > SESSION_TTL_MS) return undefined;
    s.usedAt = this.now();
    this.#byId.set(id, s);
    return s;
  }

  close(id: string): void {
    this.#byId.delete(id);
  }

  clear(): void {
    this.#byId.clear();
  }
}

/** The session id of the request's cookie header (the cookie `name`), if any. */
export function sessionIdOf(cookieHeader: string | null, name = SESSION_COOKIE): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value of a session (`id`), or of its removal (undefined), in the cookie `name`. */
export function sessionCookie(id: string | undefined, path: string, secure: boolean, name = SESSION_COOKIE): string {
  const attrs = [`Path=${path}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
  return id === undefined ? `${name}=; ${attrs.join('; ')}; Max-Age=0` : `${name}=${id}; ${attrs.join('; ')}`;
}
