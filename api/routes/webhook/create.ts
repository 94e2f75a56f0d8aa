import { z } from 'zod';
import type { Db } from '../../../db/connection.js';
import { countWebhooks, insertWebhook, type WebhookRecord } from '../../../db/webhooks.js';
import type { Config } from '../../../lib/config.js';
import { AppError } from '../../../lib/errors.js';
import { checkWebhookUrl } from '../../../lib/webhooks/address.js';
import { MAX_WEBHOOKS_PER_OWNER, newWebhookSecret, type WebhookEventType } from '../../../lib/webhooks/model.js';
import { callerOf, mapFor } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { mapId } from '../../schemas.js';
import { webhook, webhookEvent, webhookView } from './views.js';

/** webhook/create: an endpoint of the caller's, for one of their maps or all of them. */
export const operation = defineOperation(import.meta.url, {
  path: 'webhook/create',
  kind: 'json',
  summary: 'Register a webhook endpoint',
  description:
    'Registers an HTTPS endpoint that is sent the chosen `events` of one of the caller\'s maps (`map_id`) or of all their maps ' +
    '(`map_id` left out): `map.updated` (settings changed), `map.features_changed` (feature/save, map/append and the editor\'s save, ' +
    'restore and Import, with the revision and the ids added, changed and deleted), `map.deleted` and `map.image_refreshed`. Answers the endpoint and its `secret`, which is shown this once. ' +
    'Each delivery is a JSON POST `{"id", "type", "created_at", "data": {"map_id", …}}` with the headers `Webhook-Id` (the event id, ' +
    'the same on every attempt: de-duplicate by it), `Webhook-Event` and `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 ' +
    'of "<t>.<body>" with the secret>` (refuse a `t` more than 5 minutes from your clock: replays). A delivery that does not get a 2xx answer within 10 s ' +
    'is retried with backoff for 24 hours; an endpoint that fails for 24 hours is switched off and its owner told by e-mail. ' +
    'The `url` must be `https` and resolve to public addresses (`invalid_webhook_url`, `webhook_address_refused`), unless the operator ' +
    'allows private ones (WEBHOOK_ALLOW_PRIVATE, which allows plain http too). Only a map\'s owner registers endpoints for it ' +
    '(`permission_denied`); an account has at most 20 (`too_many_webhooks`).',
  args: z.strictObject({
    map_id: mapId.optional().describe('The map whose events are sent; left out: every map of the caller\'s, present and future'),
    url: z.string().describe('Where deliveries are POSTed: an https URL'),
    events: z.array(webhookEvent).min(1, 'name at least one event').describe('The events to send'),
  }),
  result: webhook.extend({ secret: z.string().describe('The signing secret; answered only here, keep it') }),
  example: {
    args: { map_id: 5480394431770113, url: 'https://example.com/hooks/maps', events: ['map.features_changed', 'map.deleted'] },
    result: {
      id: 7,
      map_id: 5480394431770113,
      url: 'https://example.com/hooks/maps',
      events: ['map.features_changed', 'map.deleted'],
      enabled: true,
      failing_since: null,
      created_at: '2026-11-27T20:30:00.000Z',
      secret: 'whsec_3q2mZ8J0bD9xv3f1qk1Yl0sQ3cR7a2nE',
    },
  },
  links: {
    Delete: { operation: 'webhook/delete', description: 'Delete this endpoint', arguments: { id: '$response.body#/id' } },
  },
  async handle(ctx, { db, config }, args) {
    const { webhook: created, secret } = await registerWebhook(db, config, callerOf(ctx).userId, {
      mapId: args.map_id === undefined ? undefined : Number(args.map_id),
      url: args.url,
      events: args.events,
    });
    ctx.body = { ...webhookView(created), secret };
  },
});

/** webhook/create's checks and write, shared with the Settings page's form: the endpoint and its secret. */
export async function registerWebhook(
  db: Db,
  config: Pick<Config, 'webhookAllowPrivate'>,
  userId: number,
  input: { mapId: number | undefined; url: string; events: readonly WebhookEventType[] },
): Promise<{ webhook: WebhookRecord; secret: string }> {
  let mapIdNumber: number | null = null;
  if (input.mapId !== undefined) {
    const { map } = await mapFor(db, input.mapId, userId, 'view');
    if (map.ownerId !== userId) throw new AppError('permission_denied', 'Only the map\'s owner registers webhooks for it.');
    mapIdNumber = map.id;
  }
  const url = await checkWebhookUrl(input.url, config.webhookAllowPrivate);
  if ((await countWebhooks(db, userId)) >= MAX_WEBHOOKS_PER_OWNER) {
    throw new AppError('too_many_webhooks', `An account has at most ${MAX_WEBHOOKS_PER_OWNER} webhook endpoints; delete one first.`);
  }
  const secret = newWebhookSecret();
  const webhook = await insertWebhook(db, { ownerId: userId, mapId: mapIdNumber, url: url.href, events: [...new Set(input.events)], secret });
  return { webhook, secret };
}
