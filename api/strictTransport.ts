// HSTS (issue 24): a browser that reached the service over HTTPS is told to use nothing else for a
// year. Sent only with answers to requests that came over HTTPS as Koa tells it — a TLS socket, or
// X-Forwarded-Proto from a proxy the service believes (TRUST_PROXY, api/clientAddress.ts) — and
// only when PUBLIC_URL is https: then every address the service hands out is https, and holding
// the host to HTTPS breaks none of them. Never over plain HTTP (RFC 6797 §7.2: browsers ignore it
// there, and a request whose scheme cannot be believed says nothing about the client's).
// No includeSubDomains: the service does not know what else runs under its domain.
import type { Context } from 'koa';

export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** Sets Strict-Transport-Security on the answer when the request came over HTTPS to an https service. */
export function strictTransport(publicUrl: string): (ctx: Context) => void {
  const httpsService = new URL(publicUrl).protocol === 'https:';
  return (ctx) => {
    if (httpsService && ctx.secure) ctx.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  };
}
