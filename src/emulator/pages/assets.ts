// The page's two static files, served by the sandbox itself under the page routes (same origin: CSP 'self', and
// the page works offline). Their URLs carry a hash of the content, so they can be cached for good.
import { createHash } from 'node:crypto';
import type { H3Event } from 'h3';
import { PAGE_SCRIPT } from './assets/script.js';
import { PAGE_CSS } from './assets/style.js';
import { pageHeaders } from './security.js';

const version = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 10);

/** Where each file is, under the page routes' base (`/pay`). */
export const ASSET_PATHS = {
  css: `/assets/page.css?v=${version(PAGE_CSS)}`,
  js: `/assets/page.js?v=${version(PAGE_SCRIPT)}`,
} as const;

const FILES: Record<string, { type: string; body: string }> = {
  'page.css': { type: 'text/css; charset=utf-8', body: PAGE_CSS },
  'page.js': { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT },
};

/** GET /pay/assets/:file — undefined (not found) for any other name. */
export function pageAsset(event: H3Event): string | undefined {
  const file = FILES[event.context.params?.file ?? ''];
  if (!file) return undefined;
  pageHeaders(event, 'public, max-age=31536000, immutable');
  event.res.headers.set('content-type', file.type);
  return file.body;
}
