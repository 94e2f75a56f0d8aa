// What every web page answer carries, and the check every form post passes.
//
// Headers: a Content-Security-Policy that lets a page load only the service's own scripts,
// styles, images and fonts (plus the video players a popup embeds), nosniff, a strict referrer
// policy, and no framing (the embed pages, later, set their own frame rule).
//
// CSRF: an unsafe request must come from the service's own pages: the browser's Sec-Fetch-Site
// (or, from older browsers, the Origin) must be this site, and the form must carry the token of
// this browser's `mps_csrf` cookie (a random value, set on the first page; SameSite=Strict, so
// another site's form cannot send it).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  'frame-src https://www.youtube-nocookie.com https://player.vimeo.com',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** An embed's headers: the same, but any site may frame it. */
export const EMBED_HEADERS = {
  'Content-Security-Policy': CSP.replace("frame-ancestors 'none'", 'frame-ancestors *'),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
} as const;

export const PAGE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

const CSRF_COOKIE = 'mps_csrf';

/** This browser's form token (set as a cookie the first time). */
export function csrfToken(ctx: Context): string {
  const state = ctx.state as { csrf?: string };
  if (state.csrf) return state.csrf;
  const existing = ctx.cookies.get(CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return (state.csrf = existing);
  const token = randomBytes(32).toString('base64url');
  ctx.cookies.set(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', overwrite: true });
  return (state.csrf = token);
}

function sameSite(ctx: Context, publicUrl: string): boolean {
  const site = ctx.get('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = ctx.get('origin');
  if (!origin) return true; // neither header: not a browser's cross-site request (curl, old clients); the token still counts
  // (Koa 3's ctx.origin is the request's Origin header itself: compare with the address served.)
  return origin === new URL(publicUrl).origin || origin === `${ctx.protocol}://${ctx.host}`;
}

function sameToken(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== 'string' || !expected || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** Refuses a form post from another site or without this browser's token (403 with a page). */
export function checkForm(publicUrl: string, refuse: (ctx: Context) => void) {
  return async (ctx: Context, next: Next) => {
    const body = (ctx.request as { body?: Record<string, unknown> }).body ?? {};
    if (!sameSite(ctx, publicUrl) || !sameToken(body._csrf, ctx.cookies.get(CSRF_COOKIE))) return refuse(ctx);
    await next();
  };
}

/** The header the editor's JSON requests carry this browser's form token in. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Refuses a JSON request of the pages (the editor's save) from another site or without this
 * browser's token in the CSRF_HEADER: 403 with a JSON error.
 */
export function checkJsonRequest(publicUrl: string) {
  return async (ctx: Context, next: Next) => {
    if (!sameSite(ctx, publicUrl) || !sameToken(ctx.get(CSRF_HEADER), ctx.cookies.get(CSRF_COOKIE))) {
      ctx.status = 403;
      ctx.body = { error: 'This request did not come from the map\'s own page, or the page is too old: reload it and save again.', error_code: 'permission_denied' };
      return;
    }
    await next();
  };
}
