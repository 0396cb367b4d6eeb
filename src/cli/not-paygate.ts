// Telling "the server is not paygate" (an HTML page, no such paths, a base URL ending in /v1) from an error the
// gateway itself answered: the first is exit 4 with what to fix in the base URL, not an API error with a hint about
// operations. Loaded only on failure (by report-error.ts).
import { APIError, ContractMismatchError } from '../client/errors.js';
import type { Connection } from './config.js';

export interface NotPaygate {
  message: string;
  hint: string;
  status: number;
}

/** Where the base URL came from, as the user would fix it. */
function baseUrlLabel(conn: Connection | undefined): string {
  if (!conn) return '--base-url / PAYGATE_BASE_URL';
  return {
    flag: '--base-url',
    env: 'PAYGATE_BASE_URL',
    profile: `the base-url of profile "${conn.profile}" (\`paygate config set base-url …\`)`,
    default: 'the default base URL',
  }[conn.baseUrlSource];
}

function endsInV1(baseUrl: string): boolean {
  try {
    return /\/v1\/?$/.test(new URL(baseUrl).pathname);
  } catch {
    return false;
  }
}

function isHtml(headers: Record<string, string>, body: unknown): boolean {
  return (
    /text\/html/i.test(headers['content-type'] ?? '') || (typeof body === 'string' && body.trimStart().startsWith('<'))
  );
}

/** What the answer was, when it shows that no paygate endpoint answered; undefined for a gateway's own error. */
function foreignAnswer(e: APIError | ContractMismatchError, v1: boolean): string | undefined {
  const html =
    e instanceof APIError
      ? isHtml(e.headers, e.body)
      : typeof e.body === 'string' && e.body.trimStart().startsWith('<');
  const shape = html ? 'an HTML page' : typeof e.body === 'string' ? 'a body that is not JSON' : undefined;
  if (e instanceof ContractMismatchError) return shape && `HTTP ${e.status} with ${shape} instead of JSON`;
  if (v1) return `HTTP ${e.status} ${e.code}`;
  // A 5xx without JSON is a proxy in front of the gateway (502, 503): the gateway is down, not absent.
  if (shape && e.status < 500) return `HTTP ${e.status} with ${shape}`;
  if (e.body === undefined && (e.status === 404 || e.status === 405)) return `HTTP ${e.status} with an empty body`;
  if (e.status === 404 && e.code === 'not_found') return 'HTTP 404 not_found (no such endpoint here)';
  if (e.status === 405 && e.code === 'method_not_allowed') return 'HTTP 405 method_not_allowed (no such endpoint here)';
  return undefined;
}

/** The not-paygate report for `e`, or undefined when `e` is the gateway's own answer (or no answer at all). */
export function notPaygate(e: unknown, conn: Connection | undefined): NotPaygate | undefined {
  if (!(e instanceof APIError) && !(e instanceof ContractMismatchError)) return undefined;
  const baseUrl = conn?.baseUrl;
  const v1 = baseUrl !== undefined && endsInV1(baseUrl);
  const what = foreignAnswer(e, v1);
  if (what === undefined) return undefined;
  const at = baseUrl ?? 'the base URL';
  const label = baseUrlLabel(conn);
  let hint: string;
  if (v1) {
    hint = `remove /v1 from ${label}: the CLI adds /v1 to each endpoint itself (use ${baseUrl!.replace(/\/v1\/?$/, '')})`;
  } else if (e.endpoint.includes(' /sandbox/')) {
    hint = `the sandbox controls exist only on a paygate sandbox: point ${label} at one (\`paygate sandbox start\`), or update a sandbox older than this CLI`;
  } else {
    hint = `check ${label}: it is the gateway's root URL with no path, e.g. http://127.0.0.1:4080 (\`paygate sandbox start\` runs one)`;
  }
  return {
    message: `this does not look like a paygate API at ${at}: ${e.endpoint} answered ${what}`,
    hint,
    status: e.status,
  };
}
