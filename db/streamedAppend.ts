// An append whose rows stream into map_features while the file is still being parsed (issue 27):
// the new features' ids come from a block reserved beforehand (one short statement on the map's
// row; generated ids may have gaps), the rows go into one COPY inside a transaction that stays
// open through the parse without holding the map's row lock (on PGlite, whose one connection
// serves everyone, the rows are written once the file is parsed, from its document file: db/copy.ts linesForOpenTransaction), and only
// once the file is parsed whole is the map locked, briefly, to move its head, counters and
// revision on. A file that
// fails, a deadline passed, or a plan that cannot use the rows as they were streamed rolls the
// whole transaction back: the map is exactly as before. So does another write to the map
// committed meanwhile (the caller then appends the file under the lock, the way of
// db/mapFeatures.ts): ids and the map's order stay those of the commits, as map/changes reads them.
import type { MapRecord, MediaRefs, RowLines } from '../lib/maps.js';
import type { Db } from './connection.js';
import { checkRowsWritten, copyFeatureRows, linesForOpenTransaction } from './copy.js';
import { stillInTime, timeLeft, type Deadline } from './deadline.js';
import { translating } from './errors.js';
import { transactionOrRollBack } from './rollBack.js';
import { findMapRecord } from './maps.js';
import { addMedia } from './mapMedia.js';
import type { MapContentState } from './mapFeatures.js';
import { closeVersion, openVersion } from './mapVersions.js';

/** Ids [first, end) of a map, reserved for one append's features, and the map's revision then. */
export interface ReservedIds {
  first: number;
  end: number;
  revision: number;
}

/**
 * Reserves `count` feature ids of the map (its next_feature_id moves on in one statement, the
 * row locked only for it; waiting for the lock ends at the deadline); undefined when there is no
 * such map.
 */
export async function reserveFeatureIds(db: Db, mapId: number, count: number, deadline?: Deadline): Promise<ReservedIds | undefined> {
  return translating(() => db.transaction(async (trx) => {
    await timeLeft(trx, deadline);
    const [row] = await trx('maps')
      .where({ id: mapId })
      .update({ next_feature_id: trx.raw('next_feature_id + ?', [count]) })
      .returning(['next_feature_id', 'revision']);
    if (!row) return undefined;
    const end = Number(row.next_feature_id);
    return { first: end - count, end, revision: Number(row.revision) };
  }));
}

/**
 * Gives reserved ids back, when no write has taken ids or changed the map since (else they stay a
 * gap: a version written meanwhile counts them as before its next id).
 */
export async function releaseFeatureIds(db: Db, mapId: number, ids: ReservedIds): Promise<void> {
  await translating(() => db('maps').where({ id: mapId, next_feature_id: ids.end, revision: ids.revision }).update({ next_feature_id: ids.first }));
}

/** What the parse tells once the file is read whole. */
export interface StreamedFile {
  /** Features parsed (the rows streamed, numbered from the reserved ids' first). */
  added: number;
  /** Bytes of their JSON texts. */
  featureBytes: number;
}

/** What the caller makes of the map's state, under its lock, once the file is parsed. */
export type StreamedFinish =
  | { head: string; media: MediaRefs }
  /** The rows as streamed do not fit the map (their groups would change): nothing is written. */
  | { fallBack: true };

export interface StreamedAppend {
  mapId: number;
  requestId: string;
  userId: number;
  ids: ReservedIds;
  /** The row lines as the parser writes them; they end when the file is parsed whole, and fail when it fails. */
  lines: RowLines;
  /** Once the lines have ended: the same lines again, from the parse's document file (PGlite writes these: linesForOpenTransaction). */
  linesAgain(): Promise<RowLines>;
  /** The parse's outcome (awaited once the lines have ended). */
  parsed: Promise<StreamedFile>;
  /** Decides the map's head from its state (may throw to refuse the append). */
  finish(current: MapContentState, file: StreamedFile): Promise<StreamedFinish> | StreamedFinish;
  checkSize(bytes: number): void;
  deadline?: Deadline;
  /** At most this many added ids are answered (the webhook event's cap). */
  maxIds: number;
}

export type StreamedOutcome =
  /** The revision the append made (a repeated request: the map's now) and the added ids (null: more than `maxIds`, or a repeated request). */
  | { record: MapRecord; added: number; alreadyApplied: boolean; revision: number; addedIds: number[] | null }
  | { fallBack: true }
  | undefined;

/**
 * Streams an append's rows into the map while they are parsed, then completes it under the map's
 * row lock (see the file's head). With the same requestId the append happens at most once (a
 * second one rolls its rows back and answers the first one's outcome).
 */
export async function appendStreamedRows(db: Db, spec: StreamedAppend): Promise<StreamedOutcome> {
  const lines = await linesForOpenTransaction(db, spec.lines, spec.linesAgain);
  return transactionOrRollBack<StreamedOutcome>(db, async (trx, rollBack) => {
    await timeLeft(trx, spec.deadline);
    const written = await copyFeatureRows(trx, spec.mapId, lines);
    const file = await spec.parsed;
    checkRowsWritten(written, file.added);
    // More features than ids reserved (a file denser than its format's least bytes a feature).
    if (spec.ids.first + file.added > spec.ids.end) return rollBack({ fallBack: true });
    await timeLeft(trx, spec.deadline);
    const map = await trx('maps').select('head', 'feature_count', 'next_feature_id', 'revision').where({ id: spec.mapId }).forUpdate().first();
    if (!map) return rollBack(undefined);
    const done = await trx('import_requests').select('features_added').where({ request_id: spec.requestId }).first();
    if (done) return rollBack({ record: (await findMapRecord(trx, spec.mapId))!, added: done.features_added, alreadyApplied: true, revision: Number(map.revision), addedIds: null });
    // Another write committed since the ids were reserved: its version counts them as older than
    // it (map/changes would miss them), and its features come before these in ids but not in the
    // map's order. The append is made again the other way, after it.
    if (Number(map.revision) !== spec.ids.revision) return rollBack({ fallBack: true });
    const finish = await spec.finish({ head: map.head, featureCount: Number(map.feature_count), nextFeatureId: Number(map.next_feature_id) }, file);
    if ('fallBack' in finish) return rollBack(finish);
    const versionId = await openVersion(trx, spec.mapId, { kind: 'append', userId: spec.userId });
    // The reserved ids this file did not use go back, unless another append has reserved ids since.
    const nextId = Number(map.next_feature_id) === spec.ids.end ? spec.ids.first + file.added : Number(map.next_feature_id);
    const [updated] = await trx('maps')
      .where({ id: spec.mapId })
      .update({
        head: finish.head,
        feature_count: trx.raw('feature_count + ?', [file.added]),
        features_bytes: trx.raw('features_bytes + ?', [file.featureBytes]),
        next_feature_id: nextId,
        revision: trx.raw('revision + 1'),
        modified_at: trx.fn.now(),
      })
      .returning(['content_bytes', 'revision']);
    spec.checkSize(Number(updated.content_bytes));
    await addMedia(trx, spec.mapId, finish.media);
    await closeVersion(trx, versionId, spec.mapId, { added: file.added, changed: 0, deleted: 0, ...(finish.head !== map.head ? { headBefore: map.head } : {}) });
    await trx('import_requests').insert({ request_id: spec.requestId, map_id: spec.mapId, features_added: file.added });
    stillInTime(spec.deadline);
    const addedIds = file.added > spec.maxIds ? null : Array.from({ length: file.added }, (_, i) => spec.ids.first + i);
    return { record: (await findMapRecord(trx, spec.mapId))!, added: file.added, alreadyApplied: false, revision: Number(updated.revision), addedIds };
  });
}
