// Small pure helpers of the transport core (core.ts): masking, header and body normalisation, error causes.
import { APIUserAbortError, PaygateError } from './errors.js';

/** Show the last 4 characters only; a short key is hidden entirely. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `****${key.slice(-4)}` : '****';
}

export function userAbort(label: string, signal: AbortSignal): APIUserAbortError {
  return new APIUserAbortError(`${label} was aborted by the caller`, { cause: signal.reason });
}

export function parseLoose(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function lowerCaseKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

export function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new PaygateError(`${name} must be a non-negative number, got ${String(value)}`);
  return value;
}

export function describeCause(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const message = err.message || err.name;
    const prefix = typeof code === 'string' && !message.includes(code) ? `${code}: ` : '';
    const nested = err.cause instanceof Error && err.cause.message ? ` (${err.cause.message})` : '';
    return `${prefix}${message}${nested}`;
  }
  return String(err);
}

/** Fill `:name` segments of a path template from `params`, URL-encoded; a missing or empty one throws. */
export function fillPath(path: string, params: Record<string, string> | undefined, label: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (typeof value !== 'string' || value === '')
      throw new PaygateError(`${label}: path parameter "${name}" must be a non-empty string`);
    return encodeURIComponent(value);
  });
}
