// Webhook endpoints and their deliveries (migration 033): what webhook/create, list and delete
// read and write, the endpoints an event goes to, and each delivery's outcome.
import { jsonColumn, type Db } from './connection.js';
import type { WebhookEventType } from '../lib/webhooks/model.js';

export interface WebhookRecord {
  id: number;
  ownerId: number;
  mapId: number | null;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  failingSince: Date | null;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: WebhookEventType;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const webhookOf = (row: Record<string, unknown>): WebhookRecord => ({
  id: Number(row.id),
  ownerId: Number(row.owner_id),
  mapId: row.map_id === null ? null : Number(row.map_id),
  url: row.url as string,
  events: jsonColumn<WebhookEventType[]>(row.events),
  enabled: row.enabled as boolean,
  failingSince: (row.failing_since as Date | null) ?? null,
  createdAt: row.created_at as Date,
});

const deliveryOf = (row: Record<string, unknown>): DeliveryRecord => ({
  id: Number(row.id),
  webhookId: Number(row.webhook_id),
  eventId: row.event_id as string,
  eventType: row.event_type as WebhookEventType,
  status: row.status as DeliveryRecord['status'],
  attempts: Number(row.attempts),
  responseCode: row.response_code === null ? null : Number(row.response_code),
  lastError: (row.last_error as string | null) ?? null,
  createdAt: row.created_at as Date,
  finishedAt: (row.finished_at as Date | null) ?? null,
});

export async function countWebhooks(db: Db, ownerId: number): Promise<number> {
  const row = await db('webhooks').where({ owner_id: ownerId }).count<{ n: string }>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function insertWebhook(db: Db, input: { ownerId: number; mapId: number | null; url: string; events: readonly WebhookEventType[]; secret: string }): Promise<WebhookRecord> {
  const [row] = await db('webhooks')
    .insert({ owner_id: input.ownerId, map_id: input.mapId, url: input.url, events: JSON.stringify(input.events), secret: input.secret })
    .returning('*');
  return webhookOf(row);
}

/** The owner's endpoints, oldest first, each with its last `deliveries` deliveries (newest first). */
export async function listWebhooks(db: Db, ownerId: number, deliveries = 10): Promise<(WebhookRecord & { deliveries: DeliveryRecord[] })[]> {
  const hooks = (await db('webhooks').where({ owner_id: ownerId }).orderBy('id')).map(webhookOf);
  if (hooks.length === 0) return [];
  const rows = await db
    .select('*')
    .from(
      db('webhook_deliveries')
        .select('*', db.raw('row_number() over (partition by webhook_id order by id desc) as n'))
        .whereIn('webhook_id', hooks.map((hook) => hook.id))
        .as('d'),
    )
    .where('n', '<=', deliveries)
    .orderBy('id', 'desc');
  return hooks.map((hook) => ({ ...hook, deliveries: rows.filter((row) => Number(row.webhook_id) === hook.id).map(deliveryOf) }));
}

/** Deletes the owner's endpoint (and its deliveries); false when the owner has no such endpoint. */
export async function deleteWebhook(db: Db, ownerId: number, id: number): Promise<boolean> {
  return (await db('webhooks').where({ id, owner_id: ownerId }).delete()) > 0;
}

/**
 * Records one delivery of an event to each enabled endpoint of the map's owner that wants it (the
 * map's own and the owner's all-maps ones); answers the deliveries' ids. `ownerId` undefined: the
 * map's owner now.
 */
export async function insertDeliveries(
  db: Db,
  event: { mapId: number; ownerId?: number; type: WebhookEventType; eventId: string; payload: string },
): Promise<number[]> {
  const owner = event.ownerId ?? Number((await db('maps').select('owner_id').where({ id: event.mapId }).first())?.owner_id ?? NaN);
  if (!Number.isFinite(owner)) return [];
  const hooks = await db('webhooks')
    .select('id')
    .where({ owner_id: owner, enabled: true })
    .where((q) => q.whereNull('map_id').orWhere('map_id', event.mapId))
    .whereRaw('events @> ?::jsonb', [JSON.stringify([event.type])]);
  if (hooks.length === 0) return [];
  const rows = await db('webhook_deliveries')
    .insert(hooks.map((hook) => ({ webhook_id: hook.id, event_id: event.eventId, event_type: event.type, payload: event.payload })))
    // An event recorded before (the same id: a request answered again) is not delivered twice.
    .onConflict(['webhook_id', 'event_id'])
    .ignore()
    .returning('id');
  return rows.map((row) => Number(row.id));
}

/** A delivery with what sending it needs: its endpoint's URL, secret and state. */
export async function findDelivery(db: Db, id: number): Promise<(DeliveryRecord & { payload: string; url: string; secret: string; enabled: boolean; ownerId: number }) | undefined> {
  const row = await db('webhook_deliveries as d')
    .join('webhooks as w', 'w.id', 'd.webhook_id')
    .select('d.*', 'w.url', 'w.secret', 'w.enabled', 'w.owner_id')
    .where('d.id', id)
    .first();
  if (!row) return undefined;
  return { ...deliveryOf(row), payload: row.payload, url: row.url, secret: row.secret, enabled: row.enabled, ownerId: Number(row.owner_id) };
}

/** One attempt's outcome: delivered (the endpoint is healthy again), or retrying (it is failing since now, unless it was already). */
export async function recordAttempt(db: Db, id: number, outcome: { ok: boolean; responseCode: number | null; error: string | null }): Promise<void> {
  await db.transaction(async (trx) => {
    const [row] = await trx('webhook_deliveries')
      .where({ id })
      .update({
        attempts: trx.raw('attempts + 1'),
        status: outcome.ok ? 'delivered' : 'retrying',
        response_code: outcome.responseCode,
        last_error: outcome.error,
        ...(outcome.ok ? { finished_at: trx.fn.now() } : { first_failed_at: trx.raw('coalesce(first_failed_at, now())') }),
      })
      .returning('webhook_id');
    if (!row) return;
    if (outcome.ok) await trx('webhooks').where({ id: row.webhook_id }).update({ failing_since: null });
    else await trx('webhooks').where({ id: row.webhook_id }).whereNull('failing_since').update({ failing_since: trx.fn.now() });
  });
}

/**
 * The delivery was given up: its retries ran out (`exhausted`), or its endpoint is gone or off.
 * When they ran out and the endpoint has failed without a success since this delivery's first
 * failed attempt (so for the whole retry time), it is switched off: answers the endpoint and its
 * owner's e-mail address then (to tell them), else undefined.
 */
export async function giveUpDelivery(
  db: Db,
  id: number,
  reason: string,
  exhausted: boolean,
): Promise<{ webhookId: number; url: string; mapId: number | null; email: string; username: string } | undefined> {
  return db.transaction(async (trx) => {
    const [row] = await trx('webhook_deliveries')
      .where({ id })
      .whereNot('status', 'delivered')
      .update({ status: 'failed', finished_at: trx.fn.now(), last_error: trx.raw('coalesce(last_error, ?)', [reason]) })
      .returning(['webhook_id', 'first_failed_at']);
    if (!row || !exhausted || row.first_failed_at === null) return undefined;
    const [off] = await trx('webhooks')
      .where({ id: row.webhook_id, enabled: true })
      .whereNotNull('failing_since')
      // Compared in SQL: a JS Date would lose the timestamps' microseconds.
      .whereRaw('failing_since <= (select first_failed_at from webhook_deliveries where id = ?)', [id])
      .update({ enabled: false, disabled_at: trx.fn.now() })
      .returning(['id', 'url', 'map_id', 'owner_id']);
    if (!off) return undefined;
    const user = await trx('users').select('email', 'username').where({ id: off.owner_id }).first();
    return { webhookId: Number(off.id), url: off.url, mapId: off.map_id === null ? null : Number(off.map_id), email: user.email, username: user.username };
  });
}
