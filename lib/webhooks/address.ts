// The address check webhook/create makes: the endpoint's host must resolve, and to public
// addresses only unless the operator allows private ones. Each delivery checks again on the
// connected socket (lib/net/publicOnlyFetch.ts), so DNS that changes its answer later is refused too.
import { lookup } from 'node:dns/promises';
import { AppError } from '../errors.js';
import { isPrivateAddress } from '../net/privateAddresses.js';
import { webhookUrlProblem } from './model.js';

const LOOKUP_MS = 5_000;

export async function checkWebhookUrl(value: string, allowPrivate: boolean): Promise<URL> {
  const problem = webhookUrlProblem(value, allowPrivate);
  if (problem) throw new AppError('invalid_webhook_url', `"url": ${problem}`);
  const url = new URL(value);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = await Promise.race([
      lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), LOOKUP_MS).unref()),
    ]);
  } catch {
    throw new AppError('invalid_webhook_url', `"url": the host ${host} cannot be found.`);
  }
  const refused = addresses.find((entry) => isPrivateAddress(entry.address));
  if (refused && !allowPrivate) {
    throw new AppError(
      'webhook_address_refused',
      `"url": ${host} is at a private, loopback or link-local address (${refused.address}); webhooks are delivered to public addresses only (the operator can allow private ones with WEBHOOK_ALLOW_PRIVATE).`,
    );
  }
  return url;
}
