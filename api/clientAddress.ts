// Who a request comes from, for the per-address limits (the rate limits, the log-in limits of the
// web pages): the connection's address, or what trusted proxies put in X-Forwarded-For
// (TRUST_PROXY). An IPv6 client holds a whole /64 network, so its limits count per /64.
import net from 'node:net';
import type Koa from 'koa';
import type { LimitsConfig } from '../lib/limitsConfig.js';

/** Tells Koa whose X-Forwarded-For to believe (ctx.ip then reads it). */
export function trustProxies(app: Koa, trustProxy: LimitsConfig['trustProxy']): void {
  app.proxy = trustProxy !== false;
  // n proxies: the address the farthest of them saw, the n-th entry from the end (Koa keeps the last n).
  if (typeof trustProxy === 'number') app.maxIpsCount = trustProxy;
}

/** The address a client's buckets are named by: IPv4 as it is, IPv6 as its /64 network. */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  if (net.isIPv6(ip)) return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

/** The eight groups of an IPv6 address, written out (zone ids dropped). */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}
