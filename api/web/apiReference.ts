// The API reference for people: GET /docs/api renders the service's own OpenAPI document
// (/openapi.json, api/openapi.ts) with Redoc's standalone bundle from npm, served by the service
// (/assets/redoc/redoc.standalone.js): nothing is fetched from anywhere else. Redoc shows each
// operation's arguments, answers, examples, links and the ready-to-copy calls in curl, Python and
// JavaScript (x-codeSamples). Its styles are made at run time (styled-components, which sets
// them through CSSOM rules a nonce does not cover): this page alone allows inline styles. Scripts
// stay the site's own; the page shows only the service's own document, no user's text.
// web/assets/api-reference.js mends two accessibility faults of Redoc's markup as it renders.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import { PAGE_HEADERS } from './security.js';

const FIXES = path.join(import.meta.dirname, '../../web/assets/api-reference.js');

const require = createRequire(import.meta.url);
const REDOC_BUNDLE = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles/redoc.standalone.js');
/** The bundle's one address outside the service: the Redocly logo beside its credit link (the text link stays; an image that fails to load is hidden by Redoc). */
const OUTSIDE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/** Redoc's colours, darker than its defaults where axe-core (WCAG 2.1 AA) found them under 4.5:1 on their backgrounds. */
const THEME = {
  colors: { primary: { main: '#1d4ed8' }, text: { primary: '#1f2933', secondary: '#374151' }, success: { main: '#166534' }, warning: { main: '#92400e' }, error: { main: '#b91c1c' } },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' }, code: { color: '#9a3412' }, links: { color: '#1d4ed8' } },
  sidebar: { textColor: '#1f2933' },
  rightPanel: { backgroundColor: '#1f2933', textColor: '#ffffff' },
};

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference — Maps</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
</head>
<body style="margin:0">
<main>
<redoc spec-url="/openapi.json" expand-responses="200" required-props-first="true" hide-loading="true" theme="${escapeAttribute(JSON.stringify(THEME))}"></redoc>
</main>
<script src="/assets/redoc/redoc.standalone.js"></script>
<script src="/assets/api-reference.js"></script>
</body>
</html>`;
}

let bundle: Buffer | undefined;
let fixes: Buffer | undefined;

export function mountApiReference(router: Router): void {
  router.get('/docs/api', (ctx) => {
    ctx.set(PAGE_HEADERS);
    // The site's policy with Redoc's needs (inline styles, its search index's worker from a blob),
    // and no frames: the video players of map popups have no place here.
    ctx.set(
      'Content-Security-Policy',
      PAGE_HEADERS['Content-Security-Policy']
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("worker-src 'self'", "worker-src 'self' blob:")
        .replace(/frame-src [^;]+/, "frame-src 'none'"),
    );
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page();
  });
  router.get('/assets/api-reference.js', (ctx) => {
    fixes ??= fs.readFileSync(FIXES);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = fixes;
  });
  router.get('/assets/redoc/redoc.standalone.js', (ctx) => {
    bundle ??= Buffer.from(fs.readFileSync(REDOC_BUNDLE, 'utf8').replace(OUTSIDE_LOGO, 'data:,'));
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = bundle;
  });
}
