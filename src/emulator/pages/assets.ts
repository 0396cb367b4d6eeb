// The page's two static files, served by the sandbox itself under the page routes (same origin: CSP 'self', and
// the page works offline). Their URLs carry a hash of the content, so they can be cached for good. The dashboard
// serves its own files the same way (`staticFiles`).
import { createHash } from 'node:crypto';
import type { H3Event } from 'h3';
import { PAGE_SCRIPT } from './assets/script.js';
import { PAGE_CSS } from './assets/style.js';
import { pageHeaders } from './security.js';

const version = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 10);

/** A stylesheet and a script served under `/assets/<name>.css|js?v=<hash>`, with the page's safety headers. */
export function staticFiles(name: string, css: string, js: string) {
  const files: Record<string, { type: string; body: string }> = {
    [`${name}.css`]: { type: 'text/css; charset=utf-8', body: css },
    [`${name}.js`]: { type: 'text/javascript; charset=utf-8', body: js },
  };
  return {
    paths: { css: `/assets/${name}.css?v=${version(css)}`, js: `/assets/${name}.js?v=${version(js)}` },
    /** GET …/assets/:file — undefined (not found) for any other name. */
    serve(event: H3Event): string | undefined {
      const file = files[event.context.params?.file ?? ''];
      if (!file) return undefined;
      pageHeaders(event, 'public, max-age=31536000, immutable');
      event.res.headers.set('content-type', file.type);
      return file.body;
    },
  };
}

const PAGE_FILES = staticFiles('page', PAGE_CSS, PAGE_SCRIPT);

/** Where each file is, under the page routes' base (`/pay`). */
export const ASSET_PATHS = PAGE_FILES.paths;

/** GET /pay/assets/:file — undefined (not found) for any other name. */
export function pageAsset(event: H3Event): string | undefined {
  return PAGE_FILES.serve(event);
}
