// Which methods a path of the two endpoint tables takes: a request with another method on it is 405 with Allow
// (any other unknown route is 404). A path under the tables' prefixes (/v1, /sandbox) with an empty segment
// (`/sandbox/operations/`, `/v1//payment`) is no path of the tables: an empty id is not an id (h3 would drop the
// trailing slash and answer the list of operations).
import type { EndpointRow } from '../../contract/endpoint-row.js';

export interface PathsOfTables {
  /** The `Allow` value of a path (methods sorted, comma-separated), or undefined when no row has the path. */
  allowed(pathname: string): string | undefined;
  /** Whether a path under the tables' prefixes has an empty segment. */
  hasEmptySegment(pathname: string): boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function pathsOfTables(rows: Iterable<EndpointRow>): PathsOfTables {
  const byPath = new Map<string, Set<string>>();
  for (const r of rows) {
    const methods = byPath.get(r.path) ?? new Set<string>();
    methods.add(r.method);
    byPath.set(r.path, methods);
  }
  const matchers = [...byPath].map(([path, methods]) => ({
    re: new RegExp(
      `^${path
        .split(/(:[A-Za-z_]+)/)
        .map((part) => (part.startsWith(':') ? '[^/]+' : escape(part)))
        .join('')}$`,
    ),
    methods,
  }));
  // The first segment of every path that has more than one (`/v1/`, `/sandbox/`; not the probes).
  const prefixes = [
    ...new Set([...byPath.keys()].filter((p) => p.indexOf('/', 1) > 0).map((p) => p.slice(0, p.indexOf('/', 1) + 1))),
  ];
  const hasEmptySegment = (pathname: string) =>
    (pathname.endsWith('/') || pathname.includes('//')) && prefixes.some((prefix) => pathname.startsWith(prefix));
  return {
    hasEmptySegment,
    allowed: (pathname) => {
      if (hasEmptySegment(pathname)) return undefined;
      const found = new Set<string>();
      for (const m of matchers) if (m.re.test(pathname)) for (const method of m.methods) found.add(method);
      return found.size > 0 ? [...found].sort().join(', ') : undefined;
    },
  };
}
