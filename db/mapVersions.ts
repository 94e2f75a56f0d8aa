// A map's versions (migration 024): every content write records what it changed — the rows it
// changed or deleted as they were before it — so any kept version is put together by walking
// back from the current rows, at the cost of what changed since, and restored the same way. A
// write opens its version before it touches a row (openVersion, keepRowsBefore) and closes it
// after (closeVersion); all in the write's transaction, on the locked map row.
import type { Knex } from 'knex';
import type { RestoreOutcome, VersionKind, VersionSummary } from '../lib/mapVersions.js';
import type { Db } from './connection.js';
import { translating } from './errors.js';
import { addMedia, mediaOfRows, recheckMedia } from './mapMedia.js';

const ROW_COLUMNS = ['feature_id', 'feature', 'ordinal', 'group_id', 'min_lon', 'min_lat', 'max_lon', 'max_lat', 'image_id', 'marker_id'] as const;
const COLUMNS = ROW_COLUMNS.join(', ');

/**
 * Starts the version a content write makes (the caller holds the map row's lock): its revision is
 * the map's next (for a new map, its first); the rest is filled in by closeVersion.
 */
export async function openVersion(trx: Knex.Transaction, mapId: number, entry: { kind: VersionKind; userId: number | null; restoredRevision?: number }): Promise<number> {
  const result = await trx.raw(
    `insert into map_versions (map_id, saved_by, kind, revision, next_feature_id, restored_revision)
       select id, ?, ?, revision + ?, next_feature_id, ? from maps where id = ?
     returning id`,
    [entry.userId, entry.kind, entry.kind === 'create' ? 0 : 1, entry.restoredRevision ?? null, mapId],
  );
  return Number(result.rows[0].id);
}

/**
 * Keeps the rows of these features as they are now, before the write changes or deletes them;
 * with `absent`, also that the ones the map does not have did not exist (for a write that gives
 * back ids below the map's next id: a restore).
 */
export async function keepRowsBefore(trx: Knex.Transaction, versionId: number, mapId: number, ids: readonly number[], { absent = false } = {}): Promise<void> {
  if (ids.length === 0) return;
  await trx.raw(
    `insert into map_version_changes (version_id, ${COLUMNS})
       select ?, ${COLUMNS} from map_features where map_id = ? and feature_id = any(?::bigint[])`,
    [versionId, mapId, [...ids]],
  );
  if (absent) {
    await trx.raw(`insert into map_version_changes (version_id, feature_id) select ?, unnest(?::bigint[]) on conflict do nothing`, [versionId, [...ids]]);
  }
}

/** Keeps every row of the map (a whole new content replaces them). */
export async function keepAllRowsBefore(trx: Knex.Transaction, versionId: number, mapId: number): Promise<void> {
  await trx.raw(`insert into map_version_changes (version_id, ${COLUMNS}) select ?, ${COLUMNS} from map_features where map_id = ?`, [versionId, mapId]);
}

/** After a whole new content: its features whose ids the map did not have before did not exist. */
export async function keepNewIdsAbsent(trx: Knex.Transaction, versionId: number, mapId: number): Promise<void> {
  await trx.raw(`insert into map_version_changes (version_id, feature_id) select ?, feature_id from map_features where map_id = ? on conflict do nothing`, [versionId, mapId]);
}

/** Ends the version once the write is done: the map's next feature id and item count after it, how much it changed, the head before it (when the write changed the head). */
export async function closeVersion(
  trx: Knex.Transaction,
  versionId: number,
  mapId: number,
  done: { added: number; changed: number; deleted: number; headBefore?: string },
): Promise<void> {
  await trx.raw(
    `update map_versions v set next_feature_id = m.next_feature_id, feature_count = m.feature_count, added = ?, changed = ?, deleted = ?, head_before = ?
       from maps m where v.id = ? and m.id = ?`,
    [done.added, done.changed, done.deleted, done.headBefore ?? null, versionId, mapId],
  );
}

/** The map's versions, newest first: at most `limit`, those older than revision `before` when given. */
export async function listVersions(db: Db, mapId: number, { limit = 100, before }: { limit?: number; before?: number } = {}): Promise<VersionSummary[]> {
  const rows = await db('map_versions as v')
    .leftJoin('users as u', 'u.id', 'v.saved_by')
    .select('v.id', 'v.revision', 'v.kind', 'u.username', 'v.created_at', 'v.added', 'v.changed', 'v.deleted', 'v.feature_count', 'v.restored_revision')
    .where('v.map_id', mapId)
    .andWhere('v.revision', '<', before ?? Number.MAX_SAFE_INTEGER)
    .orderBy('v.revision', 'desc')
    .limit(limit);
  return rows.map((row) => ({
    id: Number(row.id),
    revision: Number(row.revision),
    kind: row.kind as VersionKind,
    savedBy: row.username ?? null,
    createdAt: new Date(row.created_at),
    added: Number(row.added),
    changed: Number(row.changed),
    deleted: Number(row.deleted),
    featureCount: Number(row.feature_count),
    restoredRevision: row.restored_revision === null ? null : Number(row.restored_revision),
  }));
}

export interface VersionPoint {
  id: number;
  revision: number;
  nextFeatureId: number;
}

async function findVersion(trx: Knex.Transaction, mapId: number, versionId: number): Promise<VersionPoint | undefined> {
  const row = await trx('map_versions').select('id', 'revision', 'next_feature_id').where({ id: versionId, map_id: mapId }).first();
  return row ? { id: Number(row.id), revision: Number(row.revision), nextFeatureId: Number(row.next_feature_id) } : undefined;
}

/**
 * The features touched after a version, as they were in it: for each feature id below the
 * version's next id, the row kept by the first write after the version (up to revision `upTo`)
 * that touched it (feature null: the version did not have it). Features at or above the
 * version's next id did not exist in it; untouched ones are as they are now.
 */
export const firstChangesSql = `
  select distinct on (c.feature_id) c.*
    from map_version_changes c join map_versions l on l.id = c.version_id
   where l.map_id = ? and l.revision > ? and l.revision <= ? and c.feature_id < ?
   order by c.feature_id, l.revision`;
export const firstChangesBindings = (mapId: number, version: VersionPoint, upTo: number) => [mapId, version.revision, upTo, version.nextFeatureId];

/** The head as it was in the version: the one kept by the first later write that changed it, else today's. */
async function headAt(trx: Knex.Transaction, mapId: number, version: VersionPoint, upTo: number, current: string): Promise<string> {
  const row = await trx('map_versions')
    .select('head_before')
    .where('map_id', mapId)
    .andWhere('revision', '>', version.revision)
    .andWhere('revision', '<=', upTo)
    .whereNotNull('head_before')
    .orderBy('revision')
    .first();
  return row ? (row.head_before as string) : current;
}

/** A version's content: its head and its features' texts in the map's order; undefined when the map has no such version. */
export async function versionContent(db: Db, mapId: number, versionId: number): Promise<{ head: string; features: string; revision: number } | undefined> {
  return translating(() =>
    db.transaction(
      async (trx) => {
        const version = await findVersion(trx, mapId, versionId);
        if (!version) return undefined;
        const map = await trx('maps').select('head', 'revision').where({ id: mapId }).first();
        const revision = Number(map.revision);
        const head = await headAt(trx, mapId, version, revision, map.head as string);
        const joined = await trx.raw(
          `with first_changes as (${firstChangesSql})
           select string_agg(feature, ',' order by ordinal) as features from (
             select f.feature, f.ordinal from map_features f
              where f.map_id = ? and f.feature_id < ? and not exists (select 1 from first_changes t where t.feature_id = f.feature_id)
             union all
             select feature, ordinal from first_changes where feature is not null) x`,
          [...firstChangesBindings(mapId, version, revision), mapId, version.nextFeatureId],
        );
        return { head, features: (joined.rows[0]?.features ?? '') as string, revision: version.revision };
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    ),
  );
}

/**
 * Brings a version back as a new version (kind `restore`), in one transaction on the locked map
 * row: the features changed or deleted since get their rows back (their ids and places in the
 * map's order too), features made since are deleted, the head is the version's. Costs what
 * changed since the version. Rows written get the new revision, so an editor who changed one of
 * them meanwhile gets a conflict on save. undefined: no such map or version.
 */
export async function restoreVersion(
  db: Db,
  input: { mapId: number; versionId: number; userId: number; check?(after: { contentBytes: number; featureCount: number }): void },
): Promise<RestoreOutcome | undefined> {
  const { mapId } = input;
  return translating(() =>
    db.transaction(async (trx) => {
      const map = await trx('maps').select('revision', 'head').where({ id: mapId }).forUpdate().first();
      if (!map) return undefined;
      const version = await findVersion(trx, mapId, input.versionId);
      if (!version) return undefined;
      const current = Number(map.revision);
      if (version.revision >= current) return { restored: false, reason: 'current' } as const;
      const head = await headAt(trx, mapId, version, current, map.head as string);
      const bindings = firstChangesBindings(mapId, version, current);
      const restoredId = await openVersion(trx, mapId, { kind: 'restore', userId: input.userId, restoredRevision: version.revision });
      // What is there now of what changes: the features touched since, and those made since.
      await trx.raw(
        `with first_changes as (${firstChangesSql})
         insert into map_version_changes (version_id, ${COLUMNS})
           select ?, ${COLUMNS} from map_features f
            where f.map_id = ? and (f.feature_id >= ? or f.feature_id in (select feature_id from first_changes))`,
        [...bindings, restoredId, mapId, version.nextFeatureId],
      );
      await trx.raw(
        `with first_changes as (${firstChangesSql})
         insert into map_version_changes (version_id, feature_id) select ?, feature_id from first_changes on conflict do nothing`,
        [...bindings, restoredId],
      );
      const removed = await trx.raw(
        `delete from map_features f using map_version_changes c
          where f.map_id = ? and c.version_id = ? and c.feature_id = f.feature_id
          returning f.feature_id, octet_length(f.feature) as bytes, f.image_id, f.marker_id`,
        [mapId, restoredId],
      );
      const back = await trx.raw(
        `with first_changes as (${firstChangesSql})
         insert into map_features (map_id, revision, ${COLUMNS})
           select ?, ?, ${COLUMNS} from first_changes where feature is not null
         returning feature_id, octet_length(feature) as bytes, image_id, marker_id`,
        [...bindings, mapId, current + 1],
      );
      type Row = { feature_id: string; bytes: string; image_id: string | null; marker_id: string | null };
      const removedRows = removed.rows as Row[];
      const backRows = back.rows as Row[];
      const bytes = (rows: Row[]) => rows.reduce((sum, row) => sum + Number(row.bytes), 0);
      const [updated] = await trx('maps')
        .where({ id: mapId })
        .update({
          head,
          feature_count: trx.raw('feature_count + ?', [backRows.length - removedRows.length]),
          features_bytes: trx.raw('features_bytes + ?', [bytes(backRows) - bytes(removedRows)]),
          revision: trx.raw('revision + 1'),
          modified_at: trx.fn.now(),
        })
        .returning(['revision', 'content_bytes', 'feature_count']);
      input.check?.({ contentBytes: Number(updated.content_bytes), featureCount: Number(updated.feature_count) });
      const media = (rows: Row[]) => mediaOfRows(rows.map((row) => ({ image: row.image_id, marker: row.marker_id })));
      await addMedia(trx, mapId, media(backRows));
      await recheckMedia(trx, mapId, media(removedRows));
      const wasThere = new Set(removedRows.map((row) => row.feature_id));
      const isBack = new Set(backRows.map((row) => row.feature_id));
      const idsOf = (rows: Row[]) => rows.map((row) => Number(row.feature_id)).sort((a, b) => a - b);
      const ids = {
        added: idsOf(backRows.filter((row) => !wasThere.has(row.feature_id))),
        changed: idsOf(backRows.filter((row) => wasThere.has(row.feature_id))),
        deleted: idsOf(removedRows.filter((row) => !isBack.has(row.feature_id))),
      };
      const counts = { added: ids.added.length, changed: ids.changed.length, deleted: ids.deleted.length };
      await closeVersion(trx, restoredId, mapId, { ...counts, ...(head !== map.head ? { headBefore: map.head as string } : {}) });
      return { restored: true, revision: Number(updated.revision), ...counts, ids } as const;
    }),
  );
}

/**
 * Deletes versions past the retention, all maps at once: a map keeps its newest `keep` versions
 * and every version younger than `keepDays` days; older ones go (with the rows they kept, which
 * nothing walks back through any more: only versions older than every kept one are deleted), and
 * so do the rows each map's oldest kept version kept. Answers how many versions went.
 */
export async function pruneVersions(db: Db, keep: number, keepDays: number): Promise<number> {
  return db.transaction(async (trx) => {
    const result = await trx.raw(
      `delete from map_versions v using (
         select id, created_at, row_number() over (partition by map_id order by revision desc) as n from map_versions
       ) r
       where v.id = r.id and r.n > ? and r.created_at < now() - make_interval(days => ?)`,
      [keep, keepDays],
    );
    // The rows a map's oldest version kept lead back to versions that are gone: nothing needs them.
    await trx.raw(
      `delete from map_version_changes c using map_versions v
        where c.version_id = v.id and v.revision = (select min(o.revision) from map_versions o where o.map_id = v.map_id)`,
    );
    return result.rowCount ?? 0;
  });
}
