// The API's webhook events (issue 28): after a change is committed, its deliveries are recorded
// and their workflows started (lib/webhooks/emit.ts), without the request waiting for that: an
// event that cannot be started is logged and never fails the change.
import type { Db } from '../db/connection.js';
import { insertDeliveries } from '../db/webhooks.js';
import type { Config } from '../lib/config.js';
import { errorFields, log } from '../lib/observability/logger.js';
import { emitWebhookEvent, webhookStarter } from '../lib/webhooks/emit.js';
import { eventIdOf, MAX_EVENT_IDS, webhookSettingsOf, type WebhookEvent } from '../lib/webhooks/model.js';
import type { JobGateway } from './jobs.js';

export interface WebhookDeps {
  db: Db;
  jobs: Pick<JobGateway, 'client'>;
  config: Pick<Config, 'taskQueue' | 'webhookAllowPrivate' | 'webhookRetryFirstMs' | 'webhookRetryForMs'>;
}

/** Emits the event in the background (never throws); the promise is for tests and shutdown. */
export function emitMapEvent(deps: WebhookDeps, event: WebhookEvent): Promise<number> {
  return emitWebhookEvent(
    {
      insert: (row) => insertDeliveries(deps.db, row),
      start: async (deliveryId) => webhookStarter(await deps.jobs.client(), deps.config.taskQueue, webhookSettingsOf(deps.config))(deliveryId),
      log: (message, error) => log.warn({ err: errorFields(error) }, message),
    },
    event,
  );
}

/** map.updated's data: the settings changed (their API names). */
export const mapUpdated = (mapId: number, settings: readonly string[]): WebhookEvent => ({ type: 'map.updated', mapId, data: { settings: [...settings] } });

const SETTING_NAMES: Record<string, string> = {
  title: 'title',
  description: 'description',
  basemap: 'basemap',
  visibility: 'visibility',
  shortName: 'short_name',
  collaborate: 'collaborate',
  editorUsers: 'editor_users',
  viewerUsers: 'viewer_users',
  geojson: 'geojson',
};

/** The API names of the settings a change gives (SettingsChanges' keys that are set). */
export const changedSettings = (changes: object): string[] =>
  Object.entries(changes)
    .filter(([key, value]) => value !== undefined && key in SETTING_NAMES)
    .map(([key]) => SETTING_NAMES[key]!);

/**
 * map.features_changed's data: the revision after the change and the ids it added, changed and
 * deleted. A change of more than MAX_EVENT_IDS items (a large import or restore) sends the counts
 * and `ids_omitted: true` instead of the lists: the receiver reads map/changes since its revision.
 */
export const featuresChanged = (mapId: number, revision: number, ids: { added: readonly number[]; changed: readonly number[]; deleted: readonly number[] }): WebhookEvent => ({
  type: 'map.features_changed',
  mapId,
  data:
    ids.added.length + ids.changed.length + ids.deleted.length > MAX_EVENT_IDS
      ? { revision, ids_omitted: true, added_count: ids.added.length, changed_count: ids.changed.length, deleted_count: ids.deleted.length }
      : { revision, added_ids: [...ids.added], changed_ids: [...ids.changed], deleted_ids: [...ids.deleted] },
});

/**
 * map.features_changed of an append (map/append, the editor's Import): the ids it added, or its
 * count when they are not at hand. Its id comes from the request's, so the same append answered
 * again (an Idempotency-Key) is delivered once.
 */
export const featuresAppended = (requestId: string, mapId: number, revision: number, addedIds: readonly number[] | null | undefined, added: number): WebhookEvent => ({
  ...(addedIds
    ? featuresChanged(mapId, revision, { added: addedIds, changed: [], deleted: [] })
    : { type: 'map.features_changed' as const, mapId, data: { revision, ids_omitted: true, added_count: added, changed_count: 0, deleted_count: 0 } }),
  id: eventIdOf('map.features_changed', requestId),
});
