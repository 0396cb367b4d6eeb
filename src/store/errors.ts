// Errors of the persistence layer, with stable snake_case codes and messages that say what is wrong, which
// file, and what to do next.

export type StoreErrorCode = 'store_corrupt' | 'store_locked' | 'store_failed' | 'store_closed' | 'store_unavailable';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A snapshot or journal that cannot be read as a paygate store. Nothing was written to it. */
export class StoreCorruptError extends StoreError {
  declare readonly code: 'store_corrupt';
  /** The offending file (snapshot or journal). */
  readonly file: string;
  /** 1-based line of the journal, when the journal is at fault. */
  readonly line: number | undefined;
  /** What is wrong, without the advice. */
  readonly reason: string;

  /** `advice`: what to do, when the store is not a file (a database names its own remedies). */
  constructor(
    file: string,
    reason: string,
    opts: { line?: number; kind: 'snapshot' | 'journal'; cause?: unknown; advice?: string },
  ) {
    const where = opts.line === undefined ? file : `${file} at line ${opts.line}`;
    const advice =
      opts.advice ??
      (opts.kind === 'journal'
        ? `The file was left untouched. Repair the journal from that line on (by hand or from a backup), or delete that line ` +
          `and every line after it (dropping those transactions: each was made on top of the ones before), ` +
          `or move the store aside to start empty, or pass --store <other path> or --in-memory.`
        : `The file was left untouched. Restore it from a backup, or move it (and its .journal) aside to start empty, ` +
          `or pass --store <other path> or --in-memory.`);
    super('store_corrupt', `paygate store ${opts.kind} ${where} is corrupt: ${reason}. ${advice}`, {
      cause: opts.cause,
    });
    this.file = file;
    this.line = opts.line;
    this.reason = reason;
  }
}

/** Another live process owns the store. */
export class StoreLockedError extends StoreError {
  declare readonly code: 'store_locked';
  constructor(
    /** The store's snapshot path. */
    readonly file: string,
    /** The lock file. */
    readonly lockFile: string,
    /** The owner's pid, when the lock file could be read. */
    readonly pid: number | undefined,
    detail: { startedAt?: string; hostname?: string; sameProcess?: boolean; unreadable?: boolean } = {},
  ) {
    let who: string;
    let next = `Stop that sandbox, or pass --store <other path> or --in-memory. If no such process is running, delete ${lockFile}.`;
    if (detail.sameProcess) {
      who = `this process (pid ${pid}) already has it open through another handle`;
      next = 'Close that handle first, or use another path.';
    } else if (detail.unreadable || pid === undefined) {
      who = `its lock ${lockFile} is empty or unreadable and was written moments ago (a sandbox starting up?)`;
    } else {
      const since = detail.startedAt ? ` since ${detail.startedAt}` : '';
      const host = detail.hostname ? ` on ${detail.hostname}` : '';
      who = `another paygate sandbox (pid ${pid}${host}${since}) owns it`;
    }
    super('store_locked', `paygate store ${file} is locked: ${who}. ${next}`);
  }
}

/** A journal write or fdatasync failed in a way that leaves the file in an unknown state; the store is read-only. */
export class StoreFailedError extends StoreError {
  declare readonly code: 'store_failed';
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      'store_failed',
      `paygate store journal ${file} could not be written (${why}); no further changes are accepted. ` +
        `Everything acknowledged before is on disk: fix the cause (disk space, permissions) and restart the sandbox.`,
      { cause },
    );
  }
}

/** A write the store refused (a full disk, a lost database, a full write queue): nothing of the request was kept. */
export class StoreUnavailableError extends StoreError {
  declare readonly code: 'store_unavailable';
  /** `message`: instead of the one made from `cause` (a full write queue says so). */
  constructor(cause: unknown, message?: string) {
    const code =
      typeof cause === 'object' && cause !== null && 'code' in cause
        ? ` (${String((cause as { code: unknown }).code)})`
        : '';
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      'store_unavailable',
      message ??
        `the sandbox could not write its store${code}: ${why}. Nothing was changed; fix the store (disk space and permissions for files, the database for PostgreSQL), then retry`,
      cause === undefined ? {} : { cause },
    );
  }
}

/** The store is not open (never opened, or closed). */
export class StoreClosedError extends StoreError {
  declare readonly code: 'store_closed';
  constructor(
    readonly file: string,
    what: string,
  ) {
    super(
      'store_closed',
      `paygate store ${file} is not open: cannot ${what}. Call open() first (or do not use it after close()).`,
    );
  }
}
