// The open server-sent event streams of a server, per credential and in all, refused past the limits (429
// streams_busy / 503 streams_full with Retry-After); and the limits a sandbox runs with, the stream gate shared by
// the default workspace and every other workspace of its server.
import { ApiError } from './errors.js';
import {
  DEFAULT_STREAM_LIMITS,
  LIMIT_RETRY_AFTER_S,
  serverLimits,
  type ServerLimitOptions,
  type ServerLimits,
  type StreamLimits,
} from '../server-limits.js';

/** The open streams of a server, per credential and in all; refuses one past the limits. */
export class StreamGate {
  readonly #open = new Map<string, number>();
  #total = 0;
  /** Consumers dropped for falling behind, since the start. */
  dropped = 0;

  /** `server` names the server in the 503's message (the sandbox, or the proxy: src/proxy/sse.ts). */
  constructor(
    readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS,
    readonly server = 'the sandbox',
  ) {}

  /** Streams open now: of `credential`, or all. */
  size(credential?: string): number {
    return credential === undefined ? this.#total : (this.#open.get(credential) ?? 0);
  }

  /** Take a place for a stream of `credential` (released by the function returned, once), or throw 429 / 503. */
  admit(credential: string): () => void {
    const { perCredential, total } = this.limits;
    const retry = { 'retry-after': String(LIMIT_RETRY_AFTER_S) };
    if ((this.#open.get(credential) ?? 0) >= perCredential) {
      throw new ApiError(
        'streams_busy',
        `this credential already has ${perCredential} event streams open; close one, or retry in ${LIMIT_RETRY_AFTER_S} s`,
        retry,
      );
    }
    if (this.#total >= total) {
      throw new ApiError(
        'streams_full',
        `${this.server} already has ${total} event streams open; retry in ${LIMIT_RETRY_AFTER_S} s`,
        retry,
      );
    }
    this.#open.set(credential, (this.#open.get(credential) ?? 0) + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const n = (this.#open.get(credential) ?? 1) - 1;
      if (n > 0) this.#open.set(credential, n);
      else this.#open.delete(credential);
    };
  }
}

/** What SandboxOptions takes of the limits (src/emulator/server-limits.ts). */
export interface LimitOptions {
  /**
   * What one client may hold of the server: connections, request and upload timeouts, event streams
   * (docs/limits.md). Default: the defaults of src/emulator/server-limits.ts.
   */
  limits?: ServerLimitOptions;
  /** @internal The server's stream gate, shared by its workspaces. Default: one of the sandbox's own. */
  streamGate?: StreamGate;
}

/** `opts` with the stream gate its server's workspaces share (made here when it has none). */
export function withStreamGate<T extends LimitOptions>(opts: T): T {
  return opts.streamGate ? opts : { ...opts, streamGate: new StreamGate(serverLimits(opts.limits).streams) };
}

/** The limits of `opts`, and its stream gate. */
export function limitsOf(opts: LimitOptions): { limits: ServerLimits; streams: StreamGate } {
  const limits = serverLimits(opts.limits);
  return { limits, streams: opts.streamGate ?? new StreamGate(limits.streams) };
}
