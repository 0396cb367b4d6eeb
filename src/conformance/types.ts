/**
 * The shared conformance interface (issue 27): exchanges as seen on the wire, the rule catalogue's entries,
 * violations, and the checker. Built on by the validator (src/conformance/), the recording proxy and the
 * verify command. Fields may be added, never removed.
 */

/** One request and its answer as seen on the wire. Secrets are gone before an Exchange is built. */
export interface Exchange {
  /** 1, 2, 3… in the order the exchanges completed. */
  seq: number;
  /** Wall-clock ISO time the request arrived. */
  startedAt: string;
  durationMs: number;
  /** A stable non-secret fingerprint of the X-API-Key (e.g. 'key_' + 12 hex of sha256), never the key. */
  credential?: string;
  request: {
    /** Upper case. */
    method: string;
    /** Without the query and without any workspace prefix. */
    path: string;
    query: Record<string, string>;
    /** Lower-case names; x-api-key / authorization / cookie REMOVED. */
    headers: Record<string, string>;
    contentType?: string;
    /** Parsed JSON when the body was JSON, else undefined. */
    body?: unknown;
    /** The raw text when it was not parseable JSON and not multipart (truncated to 4 KB). */
    bodyText?: string;
  };
  response: {
    status: number;
    /** Lower-case names. */
    headers: Record<string, string>;
    /** Parsed JSON, else undefined. */
    body?: unknown;
    /** The raw text when it was not parseable JSON (truncated to 4 KB). */
    bodyText?: string;
  };
}

export type RuleKind =
  | 'request'
  | 'response'
  | 'auth'
  | 'state'
  | 'presence'
  | 'money'
  | 'idempotency'
  | 'cancel'
  | 'evidence'
  | 'balance'
  | 'isolation'
  | 'webhook';

/** One entry of the rule catalogue: id e.g. 'response.undeclared_status', section e.g. '§2.3'. */
export interface RuleInfo {
  id: string;
  kind: RuleKind;
  section: string;
  title: string;
}

export interface Violation {
  /** A RuleInfo id. */
  rule: string;
  section: string;
  /** The dotted endpoint id (e.g. 'payouts.create'), or 'METHOD /path' when no endpoint matches. */
  endpoint: string;
  /** The gateway operation id when one is involved. */
  operationId?: string;
  merchantOperationId?: string;
  /** "expected …" */
  expected: string;
  /** "got …" */
  got: string;
  /** Exchange.seq where it was seen. */
  exchange: number;
  /** Exchange.startedAt of that exchange (added: the report's `at`). */
  at?: string;
  /** Earlier exchanges it contradicts. */
  related?: number[];
}

export interface ConformanceChecker {
  /** Checks one exchange (request, response, and everything it says across earlier exchanges). */
  check(x: Exchange): Violation[];
  /** Checks one webhook the upstream sent (signature, payload, the status it announces). Added for the proxy. */
  checkWebhook?(d: WebhookDelivery): Violation[];
  /** The violations kept, oldest first: every one so far up to CheckerOptions.maxViolations, then the newest. */
  readonly violations: readonly Violation[];
  /** How many violations were found in all (kept or not). */
  readonly violationCount: number;
  /** How many violations were found in all, per rule id. */
  readonly violationsByRule: ReadonlyMap<string, number>;
  /** The newest `n` violations kept, newest first (without copying the rest). */
  newestViolations(n: number): Violation[];
  readonly exchanges: number;
}

/** One webhook the upstream sent to the proxy (`--forward-webhooks-to`), as received and as answered. */
export interface WebhookDelivery {
  /** Numbered with the exchanges: 1, 2, 3… in the order they completed. */
  seq: number;
  /** Wall-clock ISO time it arrived. */
  startedAt: string;
  durationMs: number;
  /** The webhook-* and content-type headers (lower-case names). */
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, else undefined. */
  body?: unknown;
  /** The raw text when it was not JSON (truncated to 4 KB). */
  bodyText?: string;
  /** `valid` or `invalid` against --webhook-secret; `unchecked` without one. */
  signature: 'valid' | 'invalid' | 'unchecked';
  /** Why the signature was refused. */
  signatureError?: string;
  /** The status the proxy answered the upstream with (the receiver's, 400 for a refused signature, 502). */
  status: number;
}

/** Metadata written into reportJson's output. */
export interface ReportMeta {
  upstream?: string;
  baseUrl?: string;
}
