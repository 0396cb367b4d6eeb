// The public base URL of a sandbox behind a proxy (`sandbox start --public-url`, `createSandbox({ publicUrl })`):
// every URL the sandbox returns (payment_url, receipt_url, links, page forms, webhook payloads) is built from it.

/** What is wrong with `value` as a public base URL, or undefined when it is an absolute http(s) URL without query or fragment. */
export function publicUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (/[?#]/.test(value)) return 'must not have a query or a fragment';
  return undefined;
}

/** The base every URL is built from: origin and path, without a trailing slash. */
export function publicBase(value: string): string {
  const url = new URL(value);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
