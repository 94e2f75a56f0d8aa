// Emitting a webhook event: one delivery row per endpoint that wants it, then one Temporal
// workflow per delivery. Called after the change is committed (never inside its transaction),
// best effort: an event that cannot be recorded or started is logged and never fails the change.
import { WORKFLOW_TYPES, webhookDeliveryWorkflowId, type DeliverWebhookInput } from '../jobContracts.js';
import { payloadOf, type WebhookEvent, type WebhookEventType, type WebhookSettings } from './model.js';

export interface WebhookEmitter {
  /** Records the deliveries of the event (db/webhooks.ts insertDeliveries); answers their ids. */
  insert(event: { mapId: number; ownerId?: number; type: WebhookEventType; eventId: string; payload: string }): Promise<number[]>;
  /** Starts the delivery's workflow. */
  start(deliveryId: number): Promise<void>;
  log(message: string, error: unknown): void;
}

/** Never throws. Answers the deliveries started. */
export async function emitWebhookEvent(emitter: WebhookEmitter, event: WebhookEvent): Promise<number> {
  let ids: number[];
  try {
    const payload = payloadOf(event);
    ids = await emitter.insert({ mapId: event.mapId, ownerId: event.ownerId, type: event.type, eventId: payload.id, payload: JSON.stringify(payload) });
  } catch (error) {
    emitter.log(`webhook event ${event.type} of map ${event.mapId} could not be recorded`, error);
    return 0;
  }
  let started = 0;
  for (const id of ids) {
    try {
      await emitter.start(id);
      started++;
    } catch (error) {
      emitter.log(`webhook delivery ${id} (${event.type} of map ${event.mapId}) could not be started`, error);
    }
  }
  return started;
}

/** Starts one delivery's workflow on the given task queue; a delivery already started is left alone. */
/** What starting a delivery needs of a Temporal client (api/ and workers/ pass theirs). */
export interface WorkflowStarter {
  workflow: {
    start(type: string, options: { workflowId: string; taskQueue: string; args: [DeliverWebhookInput]; workflowIdConflictPolicy: 'USE_EXISTING' }): Promise<unknown>;
  };
}

export function webhookStarter(client: WorkflowStarter, taskQueue: string, settings: WebhookSettings) {
  return async (deliveryId: number): Promise<void> => {
    const input: DeliverWebhookInput = { deliveryId, retryFirstMs: settings.retryFirstMs, retryForMs: settings.retryForMs };
    await client.workflow.start(WORKFLOW_TYPES.deliverWebhook, {
      workflowId: webhookDeliveryWorkflowId(deliveryId),
      taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  };
}
