// Webhook activities (maps task queue): emitting an event from a workflow (map.image_refreshed,
// after a render), sending one delivery attempt, and giving a delivery up (which switches an
// endpoint failing for the whole retry time off and tells its owner by e-mail).
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { findDelivery, giveUpDelivery, insertDeliveries, recordAttempt } from '../db/webhooks.js';
import { errorFields, log } from '../lib/observability/logger.js';
import { guardedFetch, publicOnlyFetch } from '../lib/net/publicOnlyFetch.js';
import { emitWebhookEvent, webhookStarter } from '../lib/webhooks/emit.js';
import { DEFAULT_WEBHOOK_SETTINGS, WEBHOOK_RESPONSE_CAP_BYTES, WEBHOOK_TIMEOUT_MS, webhookSignature, webhookUrlProblem, type WebhookEvent } from '../lib/webhooks/model.js';
import type { ActivityDeps } from './deps.js';

export function makeEmitWebhookEvent(deps: ActivityDeps, client: Client) {
  return async function emitWebhook(event: WebhookEvent): Promise<number> {
    const settings = deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
    return emitWebhookEvent(
      {
        insert: (row) => insertDeliveries(deps.db, row),
        start: webhookStarter(client, Context.current().info.taskQueue, settings),
        log: (message, error) => log.warn({ err: errorFields(error) }, message),
      },
      event,
    );
  };
}

/** Reads at most `cap` bytes of the answer's body, then drops the rest. */
async function readCapped(response: Response, cap: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read >= cap) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export function makeSendWebhook(deps: ActivityDeps) {
  const settings = deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  // One connection pool for every delivery: public addresses only unless allowed, the operator's CAs trusted.
  const fetcher = settings.allowPrivate || settings.ca !== undefined ? guardedFetch({ allowPrivate: settings.allowPrivate, ca: settings.ca }) : publicOnlyFetch;
  return async function sendWebhook(input: { deliveryId: number }): Promise<{ responseCode: number }> {
    const delivery = await findDelivery(deps.db, input.deliveryId);
    if (!delivery) throw ApplicationFailure.nonRetryable('The endpoint was deleted.', 'WebhookGone');
    if (delivery.status === 'delivered') return { responseCode: delivery.responseCode ?? 200 };
    if (!delivery.enabled) throw ApplicationFailure.nonRetryable('The endpoint is switched off.', 'WebhookGone');
    const problem = webhookUrlProblem(delivery.url, settings.allowPrivate);
    if (problem) {
      await recordAttempt(deps.db, delivery.id, { ok: false, responseCode: null, error: problem });
      throw ApplicationFailure.nonRetryable(problem, 'WebhookGone');
    }
    const t = Math.floor(Date.now() / 1000);
    let responseCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetcher(delivery.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'map-publishing-service-webhooks/1',
          'webhook-id': delivery.eventId,
          'webhook-event': delivery.eventType,
          'webhook-signature': webhookSignature(delivery.secret, delivery.payload, t),
        },
        body: delivery.payload,
      });
      responseCode = response.status;
      await readCapped(response, WEBHOOK_RESPONSE_CAP_BYTES);
      if (response.status < 200 || response.status > 299) error = `The endpoint answered HTTP ${response.status}.`;
    } catch (caught) {
      const cause = (caught as { cause?: { name?: string; message?: string } }).cause;
      if (cause?.name === 'PrivateAddressError') error = cause.message ?? 'private address';
      else if ((caught as Error).name === 'TimeoutError') error = `The endpoint did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s.`;
      else error = `The endpoint could not be reached: ${cause?.message ?? (caught as Error).message}`;
      // A 2xx answer whose body broke off still counts as delivered.
      if (responseCode !== null && responseCode >= 200 && responseCode <= 299) error = null;
    }
    await recordAttempt(deps.db, delivery.id, { ok: error === null, responseCode, error });
    if (error !== null) throw ApplicationFailure.retryable(error, 'WebhookFailed');
    return { responseCode: responseCode! };
  };
}

export function makeGiveUpWebhook(deps: ActivityDeps) {
  return async function giveUpWebhook(input: { deliveryId: number; reason: string; exhausted: boolean }): Promise<{ switchedOff: boolean }> {
    const settings = deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
    const off = await giveUpDelivery(deps.db, input.deliveryId, input.reason, input.exhausted);
    if (!off) return { switchedOff: false };
    if (deps.mailer) {
      const hours = Math.round(settings.retryForMs / 3_600_000);
      await deps.mailer.send({
        to: off.email,
        subject: 'A webhook endpoint of yours was switched off',
        text:
          `Hello ${off.username},\n\n` +
          `Deliveries to your webhook endpoint ${off.url} (${off.mapId === null ? 'all your maps' : `map ${off.mapId}`}) have failed for ` +
          `${hours >= 1 ? `${hours} hour${hours === 1 ? '' : 's'}` : 'the whole retry time'}, so it was switched off and gets no more events.\n` +
          'Its last deliveries and their errors are in webhook/list (and Settings). Fix the endpoint, then register it again (webhook/create).\n',
      });
    }
    return { switchedOff: true };
  };
}
