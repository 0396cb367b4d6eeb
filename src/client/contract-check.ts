// Checks a 2xx body against the endpoint's response schema and explains a mismatch by field path.
import type { z } from 'zod';
import { ContractMismatchError } from './errors.js';

const MAX_LISTED = 3;

/** Parse `body` with `schema`; on failure throw ContractMismatchError naming the endpoint and the failing fields. */
export function checkResponse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  endpoint: string,
  status: number,
): z.output<S> {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const leaves = issues.flatMap(leafIssues);
  const listed = leaves.slice(0, MAX_LISTED).map(describeIssue);
  const more = leaves.length > MAX_LISTED ? ` (and ${leaves.length - MAX_LISTED} more)` : '';
  throw new ContractMismatchError({
    message: `${endpoint}: ${listed.join('; ')}${more}`,
    endpoint,
    status,
    issues,
    body,
  });
}

/** A 2xx body that is not JSON at all. */
export function notJson(endpoint: string, status: number, text: string): ContractMismatchError {
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return new ContractMismatchError({
    message: `${endpoint}: response body is not JSON: ${JSON.stringify(shown)}`,
    endpoint,
    status,
    issues: [],
    body: text,
  });
}

/**
 * Flatten union failures into the issues of the branch that came closest (fewest issues), with paths made
 * absolute, so a flexible-link mismatch names a field rather than "invalid input".
 */
function leafIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
  if (best.length === 0) return [issue];
  return best.flatMap((i) => leafIssues({ ...i, path: [...issue.path, ...i.path] } as z.core.$ZodIssue));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = formatPath(issue.path);
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is missing' : issue.message;
  return path ? `response field "${path}": ${message}` : `response body: ${message}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}
