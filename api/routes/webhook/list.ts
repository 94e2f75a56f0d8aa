import { z } from 'zod';
import { listWebhooks } from '../../../db/webhooks.js';
import { callerOf } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { delivery, deliveryView, webhook, webhookView } from './views.js';

/** webhook/list: the caller's endpoints with their last deliveries. */
export const operation = defineOperation(import.meta.url, {
  path: 'webhook/list',
  kind: 'json',
  summary: 'List your webhook endpoints and their last deliveries',
  description:
    'No arguments (an empty body or `{}`). Answers the caller\'s webhook endpoints, oldest first (never their secrets), each with its ' +
    'last 10 deliveries, newest first: the event, its `status` (`pending`, `retrying`, `delivered`, `failed`), the attempts so far, ' +
    'the last HTTP status the endpoint answered and why the last attempt failed. Each delivery is also a workflow `webhook-delivery:<id>` ' +
    'in the operator\'s Temporal UI.',
  args: z.strictObject({}),
  result: z.object({ webhooks: z.array(webhook.extend({ deliveries: z.array(delivery) })) }),
  example: {
    args: {},
    result: {
      webhooks: [
        {
          id: 7,
          map_id: 5480394431770113,
          url: 'https://example.com/hooks/maps',
          events: ['map.features_changed'],
          enabled: true,
          failing_since: null,
          created_at: '2026-11-27T20:30:00.000Z',
          deliveries: [
            {
              event_id: '0b6f9a3e-5d2c-4f0e-9c1a-2b7d8e4f6a10',
              event_type: 'map.features_changed',
              status: 'delivered',
              attempts: 1,
              response_code: 200,
              error: null,
              created_at: '2026-11-27T20:31:00.000Z',
              finished_at: '2026-11-27T20:31:00.120Z',
            },
          ],
        },
      ],
    },
  },
  async handle(ctx, { db }) {
    const hooks = await listWebhooks(db, callerOf(ctx).userId);
    ctx.body = { webhooks: hooks.map((hook) => ({ ...webhookView(hook), deliveries: hook.deliveries.map(deliveryView) })) };
  },
});
