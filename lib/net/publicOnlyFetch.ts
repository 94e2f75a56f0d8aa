// A fetch that reaches only public addresses (lib/net/privateAddresses.ts), for every request the
// service makes to an address someone else chose: an operator's or a provider's tile server, and
// webhooks. The check is made on the socket's actual peer once it connects, before a byte of
// the request is written, so a name that resolves to a private address, an IP literal, a redirect
// to one, and DNS that changes its answer between checks are refused alike. `guardedFetch` makes
// one with the operator's choices: private addresses allowed, extra CAs trusted for TLS.
import { rootCertificates } from 'node:tls';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { isPrivateAddress } from './privateAddresses.js';

/** The request's host (or where it was redirected) is at a private, loopback or link-local address. */
export class PrivateAddressError extends Error {
  override name = 'PrivateAddressError';
  readonly code = 'EPRIVATEADDRESS';
  constructor(
    readonly host: string,
    readonly address: string | undefined,
  ) {
    super(`${host} is at a private network address (${address ?? 'unknown'}); only public addresses are fetched`);
  }
}

const connectPublicOnly = (tls: buildConnector.BuildOptions, allowPrivate: boolean): buildConnector.connector => {
  const connect = buildConnector(tls);
  if (allowPrivate) return connect;
  return (options, callback) => {
    connect(options, (error, socket) => {
      if (error) return callback(error, null);
      const address = socket!.remoteAddress;
      if (address === undefined || isPrivateAddress(address)) {
        socket!.destroy();
        return callback(new PrivateAddressError(options.hostname, address), null);
      }
      callback(null, socket!);
    });
  };
};

/**
 * A fetch with its own connection pool: a connection to a private address fails with a
 * PrivateAddressError as its `cause` unless `allowPrivate`; `ca` (PEM) is trusted for TLS beside
 * Node's usual certificate authorities.
 */
export function guardedFetch(options: { allowPrivate: boolean; ca?: string }): typeof globalThis.fetch {
  const tls = options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] };
  let agent: Agent | undefined;
  return (input, init) => {
    agent ??= new Agent({ connect: connectPublicOnly(tls, options.allowPrivate) });
    // undici's own fetch with its own Agent (the global fetch bundles another undici version).
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: agent }) as unknown as Promise<Response>;
  };
}

/** Like the global fetch, but a connection to a private address fails with a PrivateAddressError as its `cause`. */
export const publicOnlyFetch: typeof globalThis.fetch = guardedFetch({ allowPrivate: false });
