// A map's features one by one and in sets: the append of an import, the change of single
// features (the web editor's save), and the reads of one feature and of an area. Each costs
// what it touches, never what the map holds: the map row is locked and its counters moved on,
// the features concerned are written or read, and nothing else.
import type { BBox, FeatureRow } from '../lib/formats/featureRows.js';
import type { MapRecord, MediaRefs, RowLines } from '../lib/maps.js';
import type { Db } from './connection.js';
import { copyFeatureRows } from './copy.js';
import { timeLeft, stillInTime, type Deadline } from './deadline.js';
import { translating } from './errors.js';
import { findMapRecord } from './maps.js';
import { addMedia, claimMedia, mediaOfRows, recheckMedia } from './mapMedia.js';
import { closeVersion, keepRowsBefore, openVersion } from './mapVersions.js';

/** What an append learns of the map (under its lock) before it writes. */
export interface MapContentState {
  /** The head's JSON text. */
  head: string;
  featureCount: number;
  nextFeatureId: number;
}

/** What the caller hands back once it knows the map's head and next feature id. */
export interface PreparedAppend {
  /** The map's head after the append. */
  head: string;
  /** The appended features' row lines, with their final ids and groups. */
  lines: RowLines;
  added: number;
  /** Images and markers the appended features use. */
  media: MediaRefs;
  /** Once the lines are read: the bytes of the appended features' texts and the id after the largest. */
  written(): { featureBytes: number; nextFeatureId: number };
}

export interface AppendFeatures {
  mapId: number;
  requestId: string;
  /** Who appends (the version it makes names them). */
  userId: number;
  /** Builds the append from the map's state; may throw to refuse it. */
  prepare(current: MapContentState): PreparedAppend;
  /** Called with the bytes the map's document will have, before the append commits; may throw to refuse it. */
  checkSize(bytes: number): void;
  /** The write is cancelled and rolled back when it would end later (a file request's processing limit). */
  deadline?: Deadline;
  /** The appended ids are answered when there are at most this many (for the webhook event). */
  maxIds: number;
}

/** An append done: the map, the features added, the revision it made and their ids (null: more than `maxIds`, or a repeated request). */
export interface AppendOutcome {
  record: MapRecord;
  added: number;
  alreadyApplied: boolean;
  revision: number;
  addedIds: number[] | null;
}

/**
 * Appends features to a map under the map's row lock (concurrent appends apply one after the
 * other and none is lost): the appended rows stream in with COPY after the map's, and the map's
 * head, counters and revision move on. With the same requestId the append happens at most once.
 */
export async function appendFeatures(
  db: Db,
  spec: AppendFeatures,
): Promise<AppendOutcome | undefined> {
  return translating(() => db.transaction(async (trx) => {
    await timeLeft(trx, spec.deadline);
    const map = await trx('maps').select('head', 'feature_count', 'next_feature_id', 'revision').where({ id: spec.mapId }).forUpdate().first();
    if (!map) return undefined;
    const done = await trx('import_requests').select('features_added').where({ request_id: spec.requestId }).first();
    if (done) {
      return { record: (await findMapRecord(trx, spec.mapId))!, added: done.features_added, alreadyApplied: true, revision: Number(map.revision), addedIds: null };
    }
    const append = spec.prepare({ head: map.head, featureCount: Number(map.feature_count), nextFeatureId: Number(map.next_feature_id) });
    await timeLeft(trx, spec.deadline);
    // New ids only: the version keeps no rows, just the head when the append changed it (new groups).
    const versionId = await openVersion(trx, spec.mapId, { kind: 'append', userId: spec.userId });
    await copyFeatureRows(trx, spec.mapId, append.lines, append.added);
    const { featureBytes, nextFeatureId } = append.written();
    const [updated] = await trx('maps')
      .where({ id: spec.mapId })
      .update({
        head: append.head,
        feature_count: trx.raw('feature_count + ?', [append.added]),
        features_bytes: trx.raw('features_bytes + ?', [featureBytes]),
        next_feature_id: trx.raw('greatest(next_feature_id, ?)', [nextFeatureId]),
        revision: trx.raw('revision + 1'),
        modified_at: trx.fn.now(),
      })
      .returning(['content_bytes', 'revision']);
    spec.checkSize(Number(updated.content_bytes));
    await addMedia(trx, spec.mapId, append.media);
    await closeVersion(trx, versionId, spec.mapId, { added: append.added, changed: 0, deleted: 0, ...(append.head !== map.head ? { headBefore: map.head } : {}) });
    await trx('import_requests').insert({ request_id: spec.requestId, map_id: spec.mapId, features_added: append.added });
    // The appended rows are those from the map's next id on (ids are given upwards from it).
    const idRows = append.added > spec.maxIds ? [] : await trx('map_features').where({ map_id: spec.mapId }).andWhere('feature_id', '>=', Number(map.next_feature_id)).orderBy('feature_id').limit(spec.maxIds + 1).pluck('feature_id');
    const addedIds = append.added > spec.maxIds || idRows.length !== append.added ? null : idRows.map(Number);
    stillInTime(spec.deadline);
    return { record: (await findMapRecord(trx, spec.mapId))!, added: append.added, alreadyApplied: false, revision: Number(updated.revision), addedIds };
  }));
}

export interface FeatureChanges {
  mapId: number;
  /** The revision the changes were made on: the save is refused when the map has moved on since. */
  revision: number;
  /** New and changed features (a changed one keeps its place in the map's order; a new one goes last). */
  upsert: FeatureRow[];
  /** Ids of features to delete. */
  delete: number[];
  /** The map's new head (groups and other top-level keys), when it changed. */
  head?: string;
  /** Called with the map's size after the save, before it commits; may throw to refuse it. */
  check?(after: { contentBytes: number; featureCount: number }): void;
  /** Who saves (the version the save makes names them). */
  userId: number | null;
}

/** Rows per statement (ids per IN list, rows per INSERT: 10 parameters each). */
const BATCH = 1000;

export type SaveOutcome = { saved: true; revision: number } | { saved: false; revision: number };

const rowColumns = (mapId: number, revision: number, row: FeatureRow) => ({
  map_id: mapId,
  revision,
  feature_id: row.id,
  group_id: row.group,
  min_lon: row.bbox[0],
  min_lat: row.bbox[1],
  max_lon: row.bbox[2],
  max_lat: row.bbox[3],
  image_id: row.image,
  marker_id: row.marker,
  feature: row.text,
});


/**
 * Writes a set of changed, new and deleted features made on `revision` of the map, in one
 * transaction: refused (saved: false, with the map's revision) when the map has moved on since;
 * undefined when there is no such map. map_media is looked at again only for the media the
 * touched features used before or use now. The media the written features use must be the
 * owner's or an editor's (MediaNotLinkable otherwise, and nothing is saved).
 */
export async function saveFeatures(db: Db, changes: FeatureChanges): Promise<SaveOutcome | undefined> {
  return translating(() => db.transaction(async (trx) => {
    const map = await trx('maps').select('revision', 'head').where({ id: changes.mapId }).forUpdate().first();
    if (!map) return undefined;
    if (Number(map.revision) !== changes.revision) return { saved: false, revision: Number(map.revision) };
    const upsertIds = new Set(changes.upsert.map((row) => row.id));
    if (upsertIds.size !== changes.upsert.length) throw new Error('a feature is written twice in one save');
    if (changes.delete.some((id) => upsertIds.has(id))) throw new Error('a feature is both written and deleted in one save');
    const touched = [...upsertIds, ...new Set(changes.delete)];
    const before: { feature_id: number; bytes: number; image_id: string | null; marker_id: string | null }[] = [];
    for (let i = 0; i < touched.length; i += BATCH) {
      before.push(
        ...(await trx('map_features')
          .select('feature_id', trx.raw('octet_length(feature) as bytes'), 'image_id', 'marker_id')
          .where('map_id', changes.mapId)
          .whereIn('feature_id', touched.slice(i, i + BATCH))),
      );
    }
    const existed = new Set(before.map((row) => Number(row.feature_id)));
    // The version keeps the touched rows as they are; new features get new ids and need none.
    const versionId = await openVersion(trx, changes.mapId, { kind: 'save', userId: changes.userId });
    await keepRowsBefore(trx, versionId, changes.mapId, [...existed]);
    for (let i = 0; i < changes.delete.length; i += BATCH) {
      await trx('map_features').where('map_id', changes.mapId).whereIn('feature_id', changes.delete.slice(i, i + BATCH)).delete();
    }
    for (let i = 0; i < changes.upsert.length; i += BATCH) {
      await trx('map_features')
        .insert(changes.upsert.slice(i, i + BATCH).map((row) => rowColumns(changes.mapId, Number(map.revision) + 1, row)))
        .onConflict(['map_id', 'feature_id'])
        .merge(['revision', 'group_id', 'min_lon', 'min_lat', 'max_lon', 'max_lat', 'image_id', 'marker_id', 'feature']);
    }
    const added = [...upsertIds].filter((id) => !existed.has(id)).length;
    const removed = new Set(changes.delete.filter((id) => existed.has(id))).size;
    const bytesBefore = before.reduce((sum, row) => sum + Number(row.bytes), 0);
    const bytesAfter = changes.upsert.reduce((sum, row) => sum + Buffer.byteLength(row.text), 0);
    const update: Record<string, unknown> = {
      feature_count: trx.raw('feature_count + ?', [added - removed]),
      features_bytes: trx.raw('features_bytes + ?', [bytesAfter - bytesBefore]),
      next_feature_id: trx.raw('greatest(next_feature_id, ?)', [changes.upsert.reduce((max, row) => Math.max(max, row.id), 0) + 1]),
      revision: trx.raw('revision + 1'),
      modified_at: trx.fn.now(),
    };
    if (changes.head !== undefined) update.head = changes.head;
    const [updated] = await trx('maps').where({ id: changes.mapId }).update(update).returning(['revision', 'content_bytes', 'feature_count']);
    changes.check?.({ contentBytes: Number(updated.content_bytes), featureCount: Number(updated.feature_count) });
    await claimMedia(trx, changes.mapId, mediaOfRows(changes.upsert));
    const beforeRows = before.map((b) => ({ image: b.image_id, marker: b.marker_id }));
    await recheckMedia(trx, changes.mapId, mediaOfRows([...beforeRows, ...changes.upsert]));
    const headChanged = changes.head !== undefined && changes.head !== map.head;
    await closeVersion(trx, versionId, changes.mapId, { added, changed: upsertIds.size - added, deleted: removed, ...(headChanged ? { headBefore: map.head } : {}) });
    return { saved: true, revision: Number(updated.revision) };
  }));
}

/** The feature's JSON text, or undefined when the map has no feature with this id. */
export async function featureById(db: Db, mapId: number, featureId: number): Promise<string | undefined> {
  const row = await db('map_features').select('feature').where({ map_id: mapId, feature_id: featureId }).first();
  return row?.feature;
}

/**
 * The features of a map whose bounding boxes meet `box` ([west, south, east, north]; west above
 * east crosses the antimeridian), in the map's order, as JSON texts with their ids; at most
 * `limit` of them.
 */
export async function featuresInBox(db: Db, mapId: number, box: BBox, limit = 100_000): Promise<{ id: number; text: string }[]> {
  const [west, south, east, north] = box;
  const query = db('map_features')
    .select('feature_id', 'feature')
    .where('map_id', mapId)
    .andWhere('min_lat', '<=', north)
    .andWhere('max_lat', '>=', south)
    .orderBy('ordinal')
    .limit(limit);
  if (west <= east) query.andWhere('min_lon', '<=', east).andWhere('max_lon', '>=', west);
  else query.andWhere((q) => q.where('min_lon', '<=', east).orWhere('max_lon', '>=', west));
  const rows = await query;
  return rows.map((row) => ({ id: Number(row.feature_id), text: row.feature as string }));
}

/**
 * The map's feature texts in its order, a page at a time: those after `afterOrdinal` (-1 for
 * the first page), at most `limit`; a reader asks again from the last ordinal it got.
 */
export async function featureTextsPage(db: Db, mapId: number, afterOrdinal: number, limit: number): Promise<{ ordinal: number; text: string }[]> {
  const rows = await db('map_features').select('ordinal', 'feature').where('map_id', mapId).andWhere('ordinal', '>', afterOrdinal).orderBy('ordinal').limit(limit);
  return rows.map((row) => ({ ordinal: Number(row.ordinal), text: row.feature as string }));
}
