// One webhook delivery (workflow id `webhook-delivery:<delivery id>`, lib/jobContracts.ts): the
// sendWebhook activity POSTs the signed payload; a failed attempt (no 2xx within 10 s, no answer)
// is retried by the activity's retry policy with exponential backoff (WEBHOOK_RETRY_FIRST, twice as
// long each time, at most an hour apart) until WEBHOOK_RETRY_FOR (24 h) has passed; then the
// delivery is given up, and an endpoint failing that long is switched off (giveUpWebhook).
import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { DeliverWebhookInput } from '../lib/jobContracts.js';

const HOUR_MS = 3_600_000;

export async function deliverWebhook(input: DeliverWebhookInput): Promise<{ delivered: boolean }> {
  const { sendWebhook } = proxyActivities<Activities>({
    // The request's own timeout is 10 s; this bounds a worker that died mid-attempt.
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: input.retryForMs,
    retry: {
      initialInterval: input.retryFirstMs,
      backoffCoefficient: 2,
      maximumInterval: Math.max(input.retryFirstMs, HOUR_MS),
      nonRetryableErrorTypes: ['WebhookGone'],
    },
  });
  const { giveUpWebhook } = proxyLocalActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 10, initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
  });
  try {
    await sendWebhook({ deliveryId: input.deliveryId });
    return { delivered: true };
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : error;
    const reason = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : 'The delivery failed.';
    // Gone: the endpoint was deleted or switched off meanwhile; else its retries ran out.
    const gone = cause instanceof ApplicationFailure && cause.type === 'WebhookGone';
    await giveUpWebhook({ deliveryId: input.deliveryId, reason, exhausted: !gone });
    return { delivered: false };
  }
}
