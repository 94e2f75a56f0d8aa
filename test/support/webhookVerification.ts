// The receiver's check of a delivery exactly as docs/api.md ("Verifying a delivery") tells
// receivers to make it: the raw body, the Webhook-Signature header's t and v1, a 5-minute
// window around the receiver's clock, HMAC-SHA256 over "<t>.<body>" compared in constant time.
// Kept word for word with the docs' recipe: the tests show that recipe refuses replays.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whether a delivery is the service's and fresh: `header` is Webhook-Signature, `body` the raw body as received. */
export function verifyWebhook(secret: string, header: string | undefined, body: string, nowSeconds = Date.now() / 1000): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const [, t, v1] = match;
  if (Math.abs(nowSeconds - Number(t)) > 300) return false; // older (or newer) than 5 minutes: a replay
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1!, 'hex'));
}
