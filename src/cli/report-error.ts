// Turns any error a command threw into a message and a hint on stderr, and the exit code. Loaded only on failure.
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  CancelOutcomeUnknownError,
  ContractMismatchError,
  IdempotencyConflictError,
  PaygateError,
} from '../client/errors.js';
import { untrustedCertificate } from '../client/certificates.js';
import { err } from './colors.js';
import { describeAdminToken, describeKey, lastConnection } from './config.js';
import { CliError, errorJson } from './errors.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { redact, registerSecretsFromProcess } from './mask.js';
import { notPaygate } from './not-paygate.js';
import { requiredFlagSources } from './prompts.js';
import { wroteStdout } from './render.js';

export interface Report {
  message: string;
  hint?: string | undefined;
  exitCode: ExitCode;
  /** Stable snake_case code: the API's error code, or the CLI's own (usage_error, not_paygate, connection_failed, …). */
  code: string;
  /** The HTTP status of the answer, or null when there was none. */
  httpStatus: number | null;
}

/** Hints for API error codes (the emulator's `{ code, message }` body) where the status alone says too little. */
const CODE_HINTS: Record<string, string> = {
  idempotency_conflict: 'use a new --merchant-operation-id (this one was already used with a different body)',
  operation_not_found: 'no such operation for the shop of this key: check the id and --profile / --api-key',
  not_cancellable: 'the payment can no longer be cancelled; see its state with `paygate state <operation_id>`',
  payout_not_cancellable: 'payouts cannot be cancelled',
  no_route: 'the shop has no route for this method and currency',
  pricing_not_covered: 'the shop has no pricing for this amount range',
  not_pool_only: 'flexible links need a shop whose payin route is only the self-matching pool',
  not_pool_route:
    'pass the API key of a shop whose payout route is pooled (--api-key or PAYGATE_API_KEY; shop_pool in the default fixtures, its key is printed by `paygate sandbox start`)',
  read_capacity_exhausted:
    'one amount read at a time per replica: retry shortly (on the sandbox, `paygate sandbox pool settings --read-latency 0` removes simulated latency)',
  read_timeout: 'the read took longer than the 2 s budget: retry (on the sandbox, see `paygate sandbox pool settings`)',
  unknown_method: 'known methods: WT_RUB_C2C, WT_RUB_PHONE',
  bankname_required: 'WT_RUB_PHONE payouts need --bankname (e.g. sber, tcs)',
  unknown_bank: 'pass --bankname with one of the codes the message lists',
  bank_currency_mismatch: "pass --bankname with one of the codes the message lists (a bank of the method's currency)",
  number_required: 'payouts need --number (card or phone number)',
  invalid_state: 'the operation is not in a state that accepts this; see `paygate state <operation_id>`',
  evidence_unavailable:
    'receipt evidence is unavailable; retry later, or read the state with --merchant-operation-id (on the sandbox, `paygate sandbox evidence --on` switches it back)',
  shop_not_found: 'see the shops printed by `paygate sandbox start` (e.g. shop_a, shop_b, shop_pool)',
  key_not_found: 'see the key ids with `paygate sandbox keys list`',
};

/** Where the sandbox's admin token comes from (kept in step with ADMIN_TOKEN_ORIGIN in api.ts, not imported to stay light). */
const ADMIN_TOKEN_HINT =
  'check --admin-token / PAYGATE_ADMIN_TOKEN / profile key admin-token; `paygate sandbox start` prints the token (or fix it by setting PAYGATE_ADMIN_TOKEN when starting the sandbox)';

function apiErrorHint(e: APIError, flagsGiven: boolean | undefined): string | undefined {
  if (e instanceof IdempotencyConflictError) return CODE_HINTS.idempotency_conflict;
  if (e.code === 'missing_admin_token' || e.code === 'invalid_admin_token') {
    const conn = lastConnection();
    return `${ADMIN_TOKEN_HINT}${conn?.adminToken ? ` (sent ${describeAdminToken(conn)})` : ''}`;
  }
  if (e.endpoint.includes(' /sandbox/links/')) {
    if (e.code === 'operation_not_found') {
      return 'no flexible link with this operation_id for the shop of this key: use the operation_id `paygate payment link --flexible` answered, with the same --api-key';
    }
    if (e.code === 'validation_error' && e.endpoint.endsWith('/confirm')) {
      return "--amount must lie within the link's bounds: see them with `paygate sandbox links show <operation_id>`";
    }
    if (e.code === 'invalid_state') {
      return 'this link takes no amount now (expired, or nothing was available): see it with `paygate sandbox links show <operation_id>`; the merchant must create a new link';
    }
  }
  if (e instanceof AuthenticationError) {
    const conn = lastConnection();
    return `check --api-key / PAYGATE_API_KEY / profile${conn ? ` (sent ${describeKey(conn)})` : ''}`;
  }
  const byCode = CODE_HINTS[e.code];
  if (byCode) return byCode;
  switch (e.status) {
    case 400:
      return badRequestHint(flagsGiven);
    case 403:
      return 'this key is not allowed to use this endpoint; check --api-key / PAYGATE_API_KEY / profile';
    case 404:
      return CODE_HINTS.operation_not_found;
    case 429:
      return `rate limited; retry${e.retryAfter !== undefined ? ` in ${Math.ceil(e.retryAfter)} s` : ' shortly'}`;
    case 500:
    case 502:
    case 503:
    case 504:
      return 'the gateway is temporarily unavailable; retry shortly';
    default:
      return undefined;
  }
}

/**
 * A 400 without a hint of its own: the answers typed at a prompt when there were some, the flags only when flags
 * were given (`flagsGiven`: undefined when not known, as in process).
 */
function badRequestHint(flagsGiven: boolean | undefined): string {
  const { given, prompted } = requiredFlagSources();
  if (prompted.length > 0) {
    const typed = `check what was typed at the prompt for ${prompted.join(', ')}`;
    return given.length > 0 || flagsGiven ? `${typed}, and the flags given (see --help)` : typed;
  }
  return flagsGiven === false ? 'check the arguments (see --help)' : 'check the flags (see --help)';
}

/** What to tell the user about an unknown outcome of a create. */
function unknownOutcome(e: PaygateError): string {
  return e.merchantOperationId
    ? `the operation may or may not exist: read it with \`paygate state --merchant-operation-id ${e.merchantOperationId}\`, or retry with the same --merchant-operation-id`
    : '';
}

/** What to do about a server certificate the client does not trust (`code`: see src/client/tls.ts). */
function certificateHint(code: string): string {
  const ca = lastConnection()?.ca;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return 'the certificate does not name the host of the base URL: use a host it names (`paygate sandbox start --https --json` lists them under tls.names), or restart the sandbox with --host or --public-url naming this host';
  }
  if (ca)
    return `the certificate in ${ca.from} ${ca.path} is not the one this server serves: give the file \`paygate sandbox start --https\` printed (compare the SHA-256 fingerprints)`;
  return "the server's TLS certificate is self-signed or from an unknown CA: pass --ca <cert file> or set PAYGATE_CA (`paygate sandbox start --https` prints the file)";
}

export function describeError(e: unknown, { flagsGiven }: { flagsGiven?: boolean } = {}): Report {
  if (e instanceof CliError)
    return { message: e.message, hint: e.hint, exitCode: e.exitCode, code: e.code, httpStatus: null };
  const foreign = notPaygate(e, lastConnection());
  if (foreign)
    return {
      message: foreign.message,
      hint: foreign.hint,
      exitCode: EXIT.CONTRACT,
      code: 'not_paygate',
      httpStatus: foreign.status,
    };
  if (e instanceof APIError) {
    return {
      message: `${e.code}: ${e.detail} (HTTP ${e.status}, ${e.endpoint})`,
      hint: apiErrorHint(e, flagsGiven),
      exitCode: EXIT.API_ERROR,
      code: e.code,
      httpStatus: e.status,
    };
  }
  if (e instanceof CancelOutcomeUnknownError) {
    const connection = e.cause instanceof APIConnectionError;
    return {
      message: e.message,
      exitCode: connection ? EXIT.CONNECTION : EXIT.API_ERROR,
      code: 'cancel_outcome_unknown',
      httpStatus: null,
    };
  }
  if (e instanceof APITimeoutError) {
    const more = unknownOutcome(e);
    return {
      message: e.message,
      hint: more || 'the gateway did not answer in time; retry',
      exitCode: EXIT.CONNECTION,
      code: 'timeout',
      httpStatus: null,
    };
  }
  if (e instanceof APIConnectionError) {
    const base = lastConnection()?.baseUrl;
    const more = unknownOutcome(e);
    const untrusted = untrustedCertificate(e);
    if (untrusted)
      return {
        message: e.message,
        hint: certificateHint(untrusted),
        exitCode: EXIT.CONNECTION,
        code: 'untrusted_certificate',
        httpStatus: null,
      };
    return {
      message: `${e.message}${base && !e.message.includes(base) ? ` (${base})` : ''}`,
      hint: `is the sandbox running? start it with \`paygate sandbox start\`, or check --base-url / PAYGATE_BASE_URL${more ? `; ${more}` : ''}`,
      exitCode: EXIT.CONNECTION,
      code: 'connection_failed',
      httpStatus: null,
    };
  }
  if (e instanceof ContractMismatchError) {
    return {
      message: `response does not match the contract: ${e.message}`,
      hint: 'the server and this CLI disagree on the API; check that both are the same version (PAYGATE_DEBUG=1 shows the body)',
      exitCode: EXIT.CONTRACT,
      code: 'contract_mismatch',
      httpStatus: e.status,
    };
  }
  if (e instanceof PaygateError)
    return { message: e.message, exitCode: EXIT.API_ERROR, code: 'client_error', httpStatus: null };
  const message = e instanceof Error ? e.message : String(e);
  return {
    message: `internal error: ${message}`,
    hint: process.env.PAYGATE_DEBUG ? undefined : 'set PAYGATE_DEBUG=1 for the stack trace',
    exitCode: EXIT.API_ERROR,
    code: 'internal_error',
    httpStatus: null,
  };
}

export interface ReportOptions {
  /**
   * `--json` was given: the error is also printed on stdout as `{ "error": { code, message, http_status } }`, unless
   * the command already printed its data there.
   */
  json?: boolean;
  /** Whether the command line had any option besides --json (a 400's hint points at the flags only then). */
  flagsGiven?: boolean;
}

/** Print the error (keys redacted) on stderr, and as JSON on stdout under `--json`; return the exit code. */
export function reportError(e: unknown, { json = false, flagsGiven }: ReportOptions = {}): ExitCode {
  registerSecretsFromProcess();
  const r = describeError(e, flagsGiven === undefined ? {} : { flagsGiven });
  const lines = [`${err.red.bold('error:')} ${r.message}`];
  if (r.hint) lines.push(`${err.dim('hint:')} ${r.hint}`);
  if (process.env.PAYGATE_DEBUG) {
    if (e instanceof ContractMismatchError) lines.push(err.dim(`body: ${JSON.stringify(e.body)}`));
    if (e instanceof Error && e.stack) lines.push(err.dim(e.stack));
  }
  process.stderr.write(`${redact(lines.join('\n'))}\n`);
  // A command that printed its data first (health, --expect-status, scenario validate) keeps stdout one document.
  if (json && !wroteStdout()) {
    const body = errorJson(r.code, redact(r.message), r.httpStatus, r.hint === undefined ? undefined : redact(r.hint));
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  }
  return r.exitCode;
}
