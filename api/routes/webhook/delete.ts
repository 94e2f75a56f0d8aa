import { z } from 'zod';
import { deleteWebhook } from '../../../db/webhooks.js';
import { AppError } from '../../../lib/errors.js';
import { callerOf } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { webhookId } from './views.js';

/** webhook/delete: removes one of the caller's endpoints and its deliveries. */
export const operation = defineOperation(import.meta.url, {
  path: 'webhook/delete',
  kind: 'json',
  summary: 'Delete a webhook endpoint',
  description:
    'Deletes one of the caller\'s webhook endpoints (`id`, from webhook/create or webhook/list) with its delivery history; deliveries ' +
    'still being retried stop. `webhook_not_found` when the caller has no endpoint with that id.',
  args: z.strictObject({ id: webhookId }),
  result: z.object({ deleted: z.literal(true) }),
  example: { args: { id: 7 }, result: { deleted: true } },
  async handle(ctx, { db }, args) {
    if (!(await deleteWebhook(db, callerOf(ctx).userId, args.id))) {
      throw new AppError('webhook_not_found', `You have no webhook endpoint with the id ${args.id}.`);
    }
    ctx.body = { deleted: true };
  },
});
