// The webhook operations' shared schemas and views.
import { z } from 'zod';
import type { DeliveryRecord, WebhookRecord } from '../../../db/webhooks.js';
import { WEBHOOK_EVENTS } from '../../../lib/webhooks/model.js';

export const webhookId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe('The id of a webhook endpoint');
export const webhookEvent = z.enum(WEBHOOK_EVENTS);

export const delivery = z.object({
  event_id: z.string().describe('The event\'s id: the `id` of the payload and the `Webhook-Id` header, the same on every attempt'),
  event_type: webhookEvent,
  status: z.enum(['pending', 'retrying', 'delivered', 'failed']).describe('pending: not tried yet; retrying: failed so far, tried again with backoff; delivered: answered 2xx; failed: given up'),
  attempts: z.number().int(),
  response_code: z.number().int().nullable().describe('The HTTP status of the last attempt (null: no answer)'),
  error: z.string().nullable().describe('Why the last attempt failed'),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

export const webhook = z.object({
  id: webhookId,
  map_id: z.number().int().nullable().describe('The map it is for; null: all the owner\'s maps'),
  url: z.string(),
  events: z.array(webhookEvent),
  enabled: z.boolean().describe('false: switched off after failing for 24 hours (create it again to turn it back on)'),
  failing_since: z.string().nullable().describe('When its deliveries began to fail (null: the last one succeeded)'),
  created_at: z.string(),
});

export const webhookView = (hook: WebhookRecord): z.output<typeof webhook> => ({
  id: hook.id,
  map_id: hook.mapId,
  url: hook.url,
  events: hook.events,
  enabled: hook.enabled,
  failing_since: hook.failingSince?.toISOString() ?? null,
  created_at: hook.createdAt.toISOString(),
});

export const deliveryView = (record: DeliveryRecord): z.output<typeof delivery> => ({
  event_id: record.eventId,
  event_type: record.eventType,
  status: record.status,
  attempts: record.attempts,
  response_code: record.responseCode,
  error: record.lastError,
  created_at: record.createdAt.toISOString(),
  finished_at: record.finishedAt?.toISOString() ?? null,
});
