// Webhooks (issue 28): the events, the payload a receiver gets, how it is signed, and the rules
// an endpoint's URL must meet. Pure code shared by the API and the delivery activity.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';

export const WEBHOOK_EVENTS = ['map.updated', 'map.features_changed', 'map.deleted', 'map.image_refreshed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** At most this many endpoints per owner. */
export const MAX_WEBHOOKS_PER_OWNER = 20;
/** A receiver has this long to answer one delivery attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of a receiver's answer is read (the rest is dropped). */
export const WEBHOOK_RESPONSE_CAP_BYTES = 64 * 1024;
/** At most this many feature ids in one map.features_changed event (more: their counts only). */
export const MAX_EVENT_IDS = 10_000;
/** Deliveries are retried with backoff for this long; an endpoint failing this long is switched off. */
export const WEBHOOK_RETRY_MS = 24 * 60 * 60_000;

/** The operator's webhook settings, from the config (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_FIRST, WEBHOOK_RETRY_FOR, WEBHOOK_CA_FILE). */
export interface WebhookSettings {
  allowPrivate: boolean;
  retryFirstMs: number;
  retryForMs: number;
  /** Extra CAs (PEM) trusted for endpoints' TLS (WEBHOOK_CA_FILE). */
  ca?: string;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = { allowPrivate: false, retryFirstMs: 30_000, retryForMs: WEBHOOK_RETRY_MS };

/** The settings of the config. */
export const webhookSettingsOf = (config: { webhookAllowPrivate: boolean; webhookRetryFirstMs: number; webhookRetryForMs: number; webhookCa?: string }): WebhookSettings => ({
  allowPrivate: config.webhookAllowPrivate,
  retryFirstMs: config.webhookRetryFirstMs,
  retryForMs: config.webhookRetryForMs,
  ...(config.webhookCa !== undefined ? { ca: config.webhookCa } : {}),
});

/** What happened to a map; `data` holds the map's id and the event's details. */
export interface WebhookEvent {
  type: WebhookEventType;
  mapId: number;
  /** The map's owner: whose endpoints hear it (given for map.deleted, when the map row is gone). */
  ownerId?: number;
  /** The event's id when the change has one of its own (eventIdOf): emitted again, it is not delivered twice. Else a new random id. */
  id?: string;
  data: Record<string, unknown>;
}

/** The JSON body of a delivery. `id` is the same on every attempt: receivers de-duplicate by it. */
export interface WebhookPayload {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

export function payloadOf(event: WebhookEvent, now = new Date()): WebhookPayload {
  return { id: event.id ?? randomUUID(), type: event.type, created_at: now.toISOString(), data: { map_id: event.mapId, ...event.data } };
}

/**
 * The event id of a change named by a request id (an append's workflow id): the same every time,
 * so the event of a request answered again (its Idempotency-Key) is recorded once. A UUID (version
 * 8) made of the first 16 bytes of SHA-256 of the type and the request id.
 */
export function eventIdOf(type: WebhookEventType, requestId: string): string {
  const bytes = createHash('sha256').update(`${type}\n${requestId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new endpoint secret, shown to its owner once. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/**
 * The `Webhook-Signature` header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"
 * with the secret>`. Receivers recompute it and refuse a `t` too far from their clock (replays).
 */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * Why the URL cannot be an endpoint (a sentence), or undefined when it can: an absolute https URL
 * (http too when private addresses are allowed), without user name or password, at most 2,000
 * characters.
 */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | undefined {
  if (value.length > 2000) return 'The URL is longer than 2,000 characters.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The URL is not an absolute URL (such as https://example.com/hooks/maps).';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return `Webhooks are delivered over HTTPS only; the URL starts with ${url.protocol.replace(':', '')}:.`;
  }
  if (url.username !== '' || url.password !== '') return 'The URL may not hold a user name or password; check the signature instead.';
  return undefined;
}
