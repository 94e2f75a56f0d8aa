// Maps: their settings, members, and whole contents (a new map, a replaced content). The
// features themselves are rows of map_features (./mapFeatures.ts writes single features and
// appends; ./mapDocument.ts reads a whole document); every content write also keeps the map's
// map_media rows exact in the same transaction (./mapMedia.ts).
import type { Knex } from 'knex';
import { jsonColumn, type Db } from './connection.js';
import { checkRowsWritten, copyFeatureRows, linesForOpenTransaction } from './copy.js';
import { timeLeft, stillInTime, type Deadline } from './deadline.js';
import { translating } from './errors.js';
import { transactionOrRollBack } from './rollBack.js';
import { addMedia, replaceMedia } from './mapMedia.js';
import { closeVersion, keepAllRowsBefore, keepNewIdsAbsent, openVersion } from './mapVersions.js';
import { newLinkKey } from '../lib/linkKeys.js';
import { newMapId } from '../lib/mapIds.js';
import type { MapContent, MapDetail, MapImageFiles, MapRecord, MemberRole, RowLines, Visibility } from '../lib/maps.js';

const recordColumns = [
  'm.id',
  'm.owner_id',
  'u.username as owner',
  'm.short_name',
  'm.title',
  'm.description',
  'm.basemap',
  'm.visibility',
  'm.link_key',
  'm.collaborate',
  'm.created_at',
  'm.modified_at',
  'm.content_bytes',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const toRecord = (row: any): MapRecord => ({
  id: Number(row.id),
  ownerId: Number(row.owner_id),
  owner: row.owner,
  shortName: row.short_name,
  title: row.title,
  description: row.description,
  basemap: row.basemap,
  visibility: row.visibility,
  linkKey: row.link_key ?? null,
  collaborate: row.collaborate,
  createdAt: new Date(row.created_at),
  modifiedAt: new Date(row.modified_at),
  contentBytes: Number(row.content_bytes),
});

/** Maps in the order they were made (ids are random, so the time decides; the id only breaks ties). */
const OLDEST_FIRST = [{ column: 'm.created_at' }, { column: 'm.id' }];

const mapsWithOwner = (db: Knex | Knex.Transaction) =>
  db('maps as m').join('users as u', 'u.id', 'm.owner_id').select(recordColumns);

export async function findMapRecord(db: Db | Knex.Transaction, mapId: number): Promise<MapRecord | undefined> {
  const row = await mapsWithOwner(db).where('m.id', mapId).first();
  return row ? toRecord(row) : undefined;
}

/** The map with the user's member role in it (undefined: not a member), in one query. */
export async function findMapWithRole(db: Db, mapId: number, userId: number): Promise<{ map: MapRecord; role: MemberRole | undefined } | undefined> {
  const row = await mapsWithOwner(db)
    .leftJoin('map_members as mm', (on) => on.on('mm.map_id', 'm.id').andOnVal('mm.user_id', userId))
    .select('mm.role')
    .where('m.id', mapId)
    .first();
  return row ? { map: toRecord(row), role: (row.role ?? undefined) as MemberRole | undefined } : undefined;
}

export async function setMembership(db: Db, mapId: number, userId: number, role: MemberRole | null): Promise<void> {
  if (role === null) {
    await db('map_members').where({ map_id: mapId, user_id: userId }).delete();
    return;
  }
  await db('map_members')
    .insert({ map_id: mapId, user_id: userId, role })
    .onConflict(['map_id', 'user_id'])
    .merge({ role });
}

export async function setCollaborate(db: Db, mapId: number, collaborate: boolean): Promise<void> {
  await db('maps').where({ id: mapId }).update({ collaborate });
}

/**
 * The columns a visibility sets: an unlisted map keeps its link key while it stays unlisted and
 * gets a new one each time it becomes unlisted (a link given out before does not open it again);
 * a map of any other visibility has none (migration 027's check holds the database to it).
 */
const visibilityColumns = (db: Knex | Knex.Transaction, visibility: Visibility) => ({
  visibility,
  link_key: visibility === 'unlisted' ? db.raw("case when visibility = 'unlisted' then link_key else ? end", [newLinkKey()]) : null,
});

export async function setVisibility(db: Db, mapId: number, visibility: Visibility): Promise<void> {
  await db('maps').where({ id: mapId }).update(visibilityColumns(db, visibility));
}

/** The map's link key (null: the map is not unlisted, or there is no such map). */
export async function findLinkKey(db: Db, mapId: number): Promise<string | null> {
  const row = await db('maps').where({ id: mapId }).first('link_key');
  return row?.link_key ?? null;
}

/** The usernames of the map's editors and viewers, each list in alphabetical order. */
export async function findMapMembers(db: Db | Knex.Transaction, mapId: number): Promise<{ editors: string[]; viewers: string[] }> {
  const members = await db('map_members as mm')
    .join('users as u', 'u.id', 'mm.user_id')
    .select('u.username', 'mm.role')
    .where('mm.map_id', mapId)
    .orderBy('u.username');
  const namesOf = (role: MemberRole) => members.filter((m) => m.role === role).map((m) => m.username as string);
  return { editors: namesOf('editor'), viewers: namesOf('viewer') };
}

export async function readMapDetail(db: Db | Knex.Transaction, mapId: number): Promise<MapDetail | undefined> {
  const record = await findMapRecord(db, mapId);
  if (!record) return undefined;
  const [members, media] = await Promise.all([
    findMapMembers(db, mapId),
    db('map_media').select('kind', 'media_id').where({ map_id: mapId }).orderBy('media_id'),
  ]);
  const idsOf = (kind: string) => media.filter((m) => m.kind === kind).map((m) => m.media_id as string);
  return {
    ...record,
    ...members,
    images: idsOf('image'),
    markers: idsOf('marker'),
  };
}

/** Maps the user owns, and maps where the user is a member, with the member role; each list oldest first (ids are random: creation time orders them). */
export async function listMapsOfUser(
  db: Db,
  userId: number,
): Promise<{ owned: MapRecord[]; member: { map: MapRecord; role: MemberRole }[] }> {
  const [owned, member] = await Promise.all([
    mapsWithOwner(db).where('m.owner_id', userId).orderBy(OLDEST_FIRST),
    mapsWithOwner(db)
      .join('map_members as mm', 'mm.map_id', 'm.id')
      .select('mm.role')
      .where('mm.user_id', userId)
      .orderBy(OLDEST_FIRST),
  ]);
  return {
    owned: owned.map(toRecord),
    member: member.map((row) => ({ map: toRecord(row), role: row.role as MemberRole })),
  };
}

/**
 * The first of base, base-2, base-3 … that the owner does not use yet (other than on
 * excludeMapId). Holds a lock on the owner's short names until the transaction ends, so two
 * writers never pick the same free name (a unique violation at commit would fail one of them).
 */
async function freeShortName(
  trx: Knex.Transaction,
  ownerId: number,
  base: string,
  excludeMapId?: number,
): Promise<string> {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended('maps.short_name:' || ?, 0))", [String(ownerId)]);
  const query = trx('maps')
    .pluck('short_name')
    .where('owner_id', ownerId)
    .andWhere((q) => q.where('short_name', base).orWhere('short_name', 'like', `${base}-%`));
  if (excludeMapId !== undefined) query.whereNot('id', excludeMapId);
  const taken = new Set<string>(await query);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}

/** Streams a content's feature rows into map_features for the map (its rows, if it had any, are gone already). */
const writeFeatureRows = (trx: Knex.Transaction, mapId: number, content: MapContent) =>
  copyFeatureRows(trx, mapId, content.lines(), content.featureCount);

/** The maps columns a content sets. */
const contentColumns = (content: Omit<MapContent, 'lines'>) => ({
  head: content.head,
  feature_count: content.featureCount,
  features_bytes: content.featureBytes,
});

export interface NewMap {
  ownerId: number;
  shortNameBase: string;
  title: string;
  description: string;
  /** The description as its page shows it (lib/markdown/); left out, it is rendered at the page's first view. */
  descriptionHtml?: string;
  basemap: string;
  visibility: Visibility;
  /** The map's content (validated by the caller; its rows stream into the database). */
  content: MapContent;
  /** When given, creating twice with the same id returns the first map. */
  requestId?: string;
  /** The write is cancelled and rolled back when it would end later (a file request's processing limit). */
  deadline?: Deadline;
}

/**
 * A random id no map has (lib/mapIds.ts), held for the transaction: a writer that draws the same
 * id waits on the lock until this one ends, then finds the map and draws again. `draw` is for
 * tests, which make ids collide.
 */
export async function chooseMapId(trx: Knex.Transaction, draw: () => number = newMapId): Promise<number> {
  for (;;) {
    const id = draw();
    await trx.raw("select pg_advisory_xact_lock(hashtextextended('maps.id:' || ?, 0))", [String(id)]);
    if (!(await trx('maps').where({ id }).first('id'))) return id;
  }
}

export async function insertMap(db: Db, map: NewMap): Promise<MapRecord> {
  return translating(() => db.transaction(async (trx) => {
    if (map.requestId) {
      const done = await trx('import_requests').select('map_id').where({ request_id: map.requestId }).first();
      if (done) return (await findMapRecord(trx, Number(done.map_id)))!;
    }
    await timeLeft(trx, map.deadline);
    const mapId = await chooseMapId(trx);
    // The features first: the owner's short names stay locked only for the moment of the insert.
    await writeFeatureRows(trx, mapId, map.content);
    return insertMapRow(trx, mapId, map);
  }));
}

/** A new map whose rows stream in while its file is parsed: its content and title are known once they have all gone in. */
export interface NewStreamedMap extends Omit<NewMap, 'content' | 'title' | 'shortNameBase'> {
  /** The feature row lines as the parser writes them: they end when the file is parsed whole, and fail when it fails. */
  lines: RowLines;
  /** Once the lines have ended: the same lines again, from the parse's document file (PGlite writes these: linesForOpenTransaction). */
  linesAgain(): Promise<RowLines>;
  /**
   * Once the lines have ended: the map's content (the rows as they went in), title and short
   * name; `fallBack`: the rows cannot stay as they are (media to link), nothing is written.
   */
  settle(): Promise<Pick<NewMap, 'title' | 'shortNameBase'> & { content: Omit<MapContent, 'lines'> } | { fallBack: true }>;
}

/**
 * Creates a map whose rows stream into the database while its file is parsed, in one transaction
 * (nothing of it is seen before the commit; a failed parse leaves nothing); 'fallBack' when
 * `settle` says so (rolled back). With the same requestId, the map the first one created.
 */
export async function insertStreamedMap(db: Db, map: NewStreamedMap): Promise<MapRecord | 'fallBack'> {
  const lines = await linesForOpenTransaction(db, map.lines, map.linesAgain);
  return transactionOrRollBack<MapRecord | 'fallBack'>(db, async (trx, rollBack) => {
    if (map.requestId) {
      const done = await trx('import_requests').select('map_id').where({ request_id: map.requestId }).first();
      if (done) return (await findMapRecord(trx, Number(done.map_id)))!;
    }
    await timeLeft(trx, map.deadline);
    const mapId = await chooseMapId(trx);
    const written = await copyFeatureRows(trx, mapId, lines);
    const settled = await map.settle();
    if ('fallBack' in settled) return rollBack('fallBack');
    checkRowsWritten(written, settled.content.featureCount);
    return insertMapRow(trx, mapId, { ...map, ...settled });
  });
}

/** The map's row, its media, its first version and its request, once its features are in. */
async function insertMapRow(trx: Knex.Transaction, mapId: number, map: Omit<NewMap, 'content'> & { content: Omit<MapContent, 'lines'> }): Promise<MapRecord> {
  await timeLeft(trx, map.deadline);
  const shortName = await freeShortName(trx, map.ownerId, map.shortNameBase);
  await trx('maps').insert({
    id: mapId,
    owner_id: map.ownerId,
    short_name: shortName,
    title: map.title,
    description: map.description,
    description_html: map.descriptionHtml ?? null,
    basemap: map.basemap,
    visibility: map.visibility,
    link_key: map.visibility === 'unlisted' ? newLinkKey() : null,
    ...contentColumns(map.content),
    next_feature_id: map.content.nextFeatureId,
  });
  await addMedia(trx, mapId, map.content.media);
  await closeVersion(trx, await openVersion(trx, mapId, { kind: 'create', userId: map.ownerId }), mapId, { added: map.content.featureCount, changed: 0, deleted: 0 });
  if (map.requestId) {
    await trx('import_requests').insert({
      request_id: map.requestId,
      map_id: mapId,
      features_added: map.content.featureCount,
    });
  }
  stillInTime(map.deadline);
  return (await findMapRecord(trx, mapId))!;
}

export interface MapChanges {
  title?: string;
  description?: string;
  /** The new description as its page shows it (lib/markdown/); left out, it is rendered at the page's next view. */
  descriptionHtml?: string;
  basemap?: string;
  visibility?: Visibility;
  shortNameBase?: string;
  /** A whole new content (validated by the caller). */
  content?: MapContent;
  /** Who changes it (the version a new content makes names them). */
  userId?: number;
  collaborate?: boolean;
  /** The map's editors and viewers (user ids, none in both lists, not the owner): each list given replaces that role's members. */
  editors?: number[];
  viewers?: number[];
}

/**
 * Applies the given changes (only those present) and moves modified_at. A new content replaces
 * the map's features in the same transaction and moves the revision on; feature ids already
 * handed out are never handed out again.
 */
export async function updateMap(db: Db, mapId: number, changes: MapChanges): Promise<MapRecord | undefined> {
  return translating(() => db.transaction(async (trx) => {
    const current = await trx('maps').select('owner_id', 'short_name', 'head', 'feature_count').where({ id: mapId }).forUpdate().first();
    if (!current) return undefined;
    const update: Record<string, unknown> = { modified_at: trx.fn.now() };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.description !== undefined) Object.assign(update, { description: changes.description, description_html: changes.descriptionHtml ?? null });
    if (changes.basemap !== undefined) update.basemap = changes.basemap;
    if (changes.visibility !== undefined) Object.assign(update, visibilityColumns(trx, changes.visibility));
    if (changes.collaborate !== undefined) update.collaborate = changes.collaborate;
    if (changes.editors !== undefined) await replaceMembers(trx, mapId, 'editor', changes.editors);
    if (changes.viewers !== undefined) await replaceMembers(trx, mapId, 'viewer', changes.viewers);
    let versionId: number | undefined;
    if (changes.content !== undefined) {
      // The version keeps every row as it was (the write costs the map's size anyway).
      versionId = await openVersion(trx, mapId, { kind: 'replace', userId: changes.userId ?? null });
      await keepAllRowsBefore(trx, versionId, mapId);
      await trx('map_features').where({ map_id: mapId }).delete();
      await writeFeatureRows(trx, mapId, changes.content);
      await keepNewIdsAbsent(trx, versionId, mapId);
      Object.assign(update, contentColumns(changes.content), {
        next_feature_id: trx.raw('greatest(next_feature_id, ?)', [changes.content.nextFeatureId]),
        revision: trx.raw('revision + 1'),
        // Every row was rewritten: a web save made on an earlier revision conflicts on any feature it changed.
        replaced_revision: trx.raw('revision + 1'),
      });
    }
    if (changes.shortNameBase !== undefined) {
      update.short_name = await freeShortName(trx, Number(current.owner_id), changes.shortNameBase, mapId);
      if (update.short_name !== current.short_name) await keepOldShortName(trx, Number(current.owner_id), current.short_name, mapId);
    }
    await trx('maps').where({ id: mapId }).update(update);
    if (changes.content) await replaceMedia(trx, mapId, changes.content.media);
    if (versionId !== undefined && changes.content) {
      const headBefore = current.head === changes.content.head ? {} : { headBefore: current.head as string };
      await closeVersion(trx, versionId, mapId, { added: changes.content.featureCount, changed: 0, deleted: Number(current.feature_count), ...headBefore });
    }
    return findMapRecord(trx, mapId);
  }));
}

/** The map's description as its page shows it: null when not rendered since it was saved (or no such map). */
export async function findDescriptionHtml(db: Db, mapId: number): Promise<string | null> {
  const row = await db('maps').where({ id: mapId }).first('description_html');
  return row?.description_html ?? null;
}

/** Keeps the HTML rendered from this description, unless the description changed meanwhile. */
export async function storeDescriptionHtml(db: Db, mapId: number, description: string, html: string): Promise<void> {
  await db('maps').where({ id: mapId, description }).whereNull('description_html').update({ description_html: html });
}

/**
 * Makes exactly these users the map's members of this role: others of the role leave, and a
 * member of the other role named here changes role (a user has one role in a map).
 */
async function replaceMembers(trx: Knex.Transaction, mapId: number, role: MemberRole, userIds: number[]): Promise<void> {
  await trx('map_members').where({ map_id: mapId, role }).whereNotIn('user_id', userIds).delete();
  if (userIds.length === 0) return;
  await trx('map_members')
    .insert(userIds.map((userId) => ({ map_id: mapId, user_id: userId, role })))
    .onConflict(['map_id', 'user_id'])
    .merge(['role']);
}

/** Remembers a renamed map's old short name (the latest map renamed away from a name gets it). */
async function keepOldShortName(trx: Knex.Transaction, ownerId: number, shortName: string, mapId: number): Promise<void> {
  await trx('map_old_short_names')
    .insert({ owner_id: ownerId, short_name: shortName, map_id: mapId, renamed_at: trx.fn.now() })
    .onConflict(['owner_id', 'short_name'])
    .merge(['map_id', 'renamed_at']);
}

/**
 * Where a map that used to be at `{owner}/{short_name}` is now: its current short name, when no
 * map of the owner's holds that name today (the caller looks for one first).
 */
export async function findRenamedMap(db: Db, owner: string, oldShortName: string): Promise<{ mapId: number; shortName: string } | undefined> {
  const row = await db('map_old_short_names as o')
    .join('users as u', 'u.id', 'o.owner_id')
    .join('maps as m', 'm.id', 'o.map_id')
    .whereRaw('lower(u.username) = lower(?)', [owner])
    .andWhere('o.short_name', oldShortName)
    .first('m.id', 'm.short_name');
  return row ? { mapId: Number(row.id), shortName: row.short_name } : undefined;
}

/**
 * The map at `{owner}/{short_name}` (the owner's username in any case), the caller's member role
 * in it (userId null: nobody signed in) and its image files (null until its first image).
 */
export async function findMapImageByAddress(
  db: Db,
  owner: string,
  shortName: string,
  userId: number | null,
): Promise<{ map: MapRecord; role: MemberRole | undefined; files: MapImageFiles | null } | undefined> {
  const row = await mapsWithOwner(db)
    .leftJoin('map_members as mm', (on) => on.on('mm.map_id', 'm.id').andOnVal('mm.user_id', userId ?? 0))
    .select('mm.role', 'm.image_files')
    .whereRaw('lower(u.username) = lower(?)', [owner])
    .andWhere('m.short_name', shortName)
    .first();
  if (!row) return undefined;
  return { map: toRecord(row), role: (row.role ?? undefined) as MemberRole | undefined, files: jsonColumn<MapImageFiles | null>(row.image_files) };
}

/**
 * Records a map's new image files; answers the ones they replace (for the caller to delete), or
 * undefined when the map no longer exists (then the new files are the caller's to delete).
 */
export async function replaceMapImageFiles(db: Db, mapId: number, files: MapImageFiles): Promise<{ previous: MapImageFiles | null } | undefined> {
  return db.transaction(async (trx) => {
    const row = await trx('maps').where({ id: mapId }).forUpdate().first('image_files');
    if (!row) return undefined;
    await trx('maps').where({ id: mapId }).update({ image_files: JSON.stringify(files) });
    return { previous: jsonColumn<MapImageFiles | null>(row.image_files) };
  });
}

/** Public maps, newest first, a page at a time: `limit` of them after `offset`, and whether more follow. */
export async function listPublicMaps(db: Db, offset: number, limit: number): Promise<{ maps: MapRecord[]; more: boolean }> {
  const rows = await mapsWithOwner(db).where('m.visibility', 'public').orderBy([{ column: 'm.created_at', order: 'desc' }, { column: 'm.id', order: 'desc' }]).offset(offset).limit(limit + 1);
  return { maps: rows.slice(0, limit).map(toRecord), more: rows.length > limit };
}

/**
 * Deletes the owner's map (its features, members and media links go with it); answers its image
 * files for the caller to delete, or undefined when the owner has no such map.
 */
export async function deleteMapOfOwner(db: Db, mapId: number, ownerId: number): Promise<{ files: MapImageFiles | null } | undefined> {
  const rows = await db('maps').where({ id: mapId, owner_id: ownerId }).delete().returning('image_files');
  if (rows.length === 0) return undefined;
  return { files: jsonColumn<MapImageFiles | null>(rows[0].image_files) };
}
