// The browser's log-in: the `mps_session` cookie holds a random token whose hash names a row of
// `sessions` (lib/webAccounts.ts). httpOnly, SameSite=Lax, Secure behind HTTPS; a new token at
// each log-in; ended by log-out, a password reset, or 30 days without use.
import type { Context, Next } from 'koa';
import type { User } from '../../lib/users.js';
import { SESSION_TTL_MS, sessionUser, type WebAccountRepository } from '../../lib/webAccounts.js';

const SESSION_COOKIE = 'mps_session';

export interface WebState {
  viewer?: User;
}

export function loadViewer(web: WebAccountRepository) {
  return async (ctx: Context, next: Next) => {
    const viewer = await sessionUser(web, ctx.cookies.get(SESSION_COOKIE));
    if (viewer) (ctx.state as WebState).viewer = viewer;
    await next();
  };
}

export const sessionTokenOf = (ctx: Context): string | undefined => ctx.cookies.get(SESSION_COOKIE);

export function setSessionCookie(ctx: Context, token: string | null): void {
  ctx.cookies.set(SESSION_COOKIE, token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    path: '/',
    overwrite: true,
    ...(token ? { maxAge: SESSION_TTL_MS } : { maxAge: 0, expires: new Date(0) }),
  });
}
