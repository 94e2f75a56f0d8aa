// Maps, their members and the media they reference. Every GeoJSON write also updates the
// map's map_media rows in the same transaction (rewritten on replace, added to on append).
import type { Knex } from 'knex';
import type { Db } from './connection.js';
import { timeLeft, stillInTime, type Deadline } from './deadline.js';
import { translating } from './errors.js';
import { documentText } from '../lib/formats/documentFile.js';
import { setOwn } from '../lib/geojson/json-data.js';
import type { DocumentHead } from '../lib/geojson/model.js';
import type { MapDetail, MapRecord, MediaRefs, MemberRole, Visibility } from '../lib/maps.js';
import { STAGED_JSON, stageJson, type JsonText } from './stagedJson.js';

export type { JsonText } from './stagedJson.js';


const recordColumns = [
  'm.id',
  'm.owner_id',
  'u.username as owner',
  'm.short_name',
  'm.title',
  'm.description',
  'm.basemap',
  'm.visibility',
  'm.collaborate',
  'm.created_at',
  'm.modified_at',
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
  collaborate: row.collaborate,
  createdAt: new Date(row.created_at),
  modifiedAt: new Date(row.modified_at),
});

const mapsWithOwner = (db: Knex | Knex.Transaction) =>
  db('maps as m').join('users as u', 'u.id', 'm.owner_id').select(recordColumns);

export async function findMapRecord(db: Db | Knex.Transaction, mapId: number): Promise<MapRecord | undefined> {
  const row = await mapsWithOwner(db).where('m.id', mapId).first();
  return row ? toRecord(row) : undefined;
}

export async function findMembership(db: Db, mapId: number, userId: number): Promise<MemberRole | undefined> {
  const row = await db('map_members').select('role').where({ map_id: mapId, user_id: userId }).first();
  return row?.role;
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

export async function setVisibility(db: Db, mapId: number, visibility: Visibility): Promise<void> {
  await db('maps').where({ id: mapId }).update({ visibility });
}

export async function readMapDetail(db: Db, mapId: number): Promise<MapDetail | undefined> {
  const row = await mapsWithOwner(db).select('m.content_bytes').where('m.id', mapId).first();
  if (!row) return undefined;
  const [members, media] = await Promise.all([
    db('map_members as mm')
      .join('users as u', 'u.id', 'mm.user_id')
      .select('u.username', 'mm.role')
      .where('mm.map_id', mapId)
      .orderBy('u.username'),
    db('map_media').select('kind', 'media_id').where({ map_id: mapId }).orderBy('media_id'),
  ]);
  const namesOf = (role: MemberRole) => members.filter((m) => m.role === role).map((m) => m.username as string);
  const idsOf = (kind: string) => media.filter((m) => m.kind === kind).map((m) => m.media_id as string);
  return {
    ...toRecord(row),
    contentBytes: Number(row.content_bytes),
    editors: namesOf('editor'),
    viewers: namesOf('viewer'),
    images: idsOf('image'),
    markers: idsOf('marker'),
  };
}

/** Maps the user owns, and maps where the user is a member, with the member role. */
export async function listMapsOfUser(
  db: Db,
  userId: number,
): Promise<{ owned: MapRecord[]; member: { map: MapRecord; role: MemberRole }[] }> {
  const [owned, member] = await Promise.all([
    mapsWithOwner(db).where('m.owner_id', userId).orderBy('m.id'),
    mapsWithOwner(db)
      .join('map_members as mm', 'mm.map_id', 'm.id')
      .select('mm.role')
      .where('mm.user_id', userId)
      .orderBy('m.id'),
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

/** Replaces the map's map_media rows. */
async function writeMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
  await trx('map_media').where({ map_id: mapId }).delete();
  await addMedia(trx, mapId, media);
}

/** Adds map_media rows (those the map has already stay as they are). */
async function addMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
  const rows = [
    ...media.images.map((id) => ({ map_id: mapId, kind: 'image', media_id: id })),
    ...media.markers.map((id) => ({ map_id: mapId, kind: 'marker', media_id: id })),
  ];
  for (let i = 0; i < rows.length; i += 1000) {
    await trx('map_media').insert(rows.slice(i, i + 1000)).onConflict(['map_id', 'kind', 'media_id']).ignore();
  }
}

export interface NewMap {
  ownerId: number;
  shortNameBase: string;
  title: string;
  description: string;
  basemap: string;
  visibility: Visibility;
  /**
   * The map document as JSON text (validated by the caller), streamed into the database; a
   * function, because a retried transaction reads it again.
   */
  geojson: () => JsonText;
  /** Bytes of that text. */
  contentBytes: number;
  media: MediaRefs;
  featureCount: number;
  /** When given, creating twice with the same id returns the first map. */
  requestId?: string;
  /** The write is cancelled and rolled back when it would end later (a file request's processing limit). */
  deadline?: Deadline;
}

export async function insertMap(db: Db, map: NewMap): Promise<MapRecord> {
  return translating(() => db.transaction(async (trx) => {
    if (map.requestId) {
      const done = await trx('import_requests').select('map_id').where({ request_id: map.requestId }).first();
      if (done) return (await findMapRecord(trx, Number(done.map_id)))!;
    }
    await timeLeft(trx, map.deadline);
    // The document first: the owner's short names stay locked only for the moment of the insert.
    await stageJson(trx, map.geojson());
    await timeLeft(trx, map.deadline);
    const shortName = await freeShortName(trx, map.ownerId, map.shortNameBase);
    const inserted = await trx.raw(
      `insert into maps (owner_id, short_name, title, description, basemap, visibility, geojson, content_bytes)
       select ?, ?, ?, ?, ?, ?, doc, ? from ${STAGED_JSON} returning id`,
      [map.ownerId, shortName, map.title, map.description, map.basemap, map.visibility, map.contentBytes],
    );
    const mapId = Number(inserted.rows[0].id);
    await writeMedia(trx, mapId, map.media);
    if (map.requestId) {
      await trx('import_requests').insert({
        request_id: map.requestId,
        map_id: mapId,
        features_added: map.featureCount,
      });
    }
    stillInTime(map.deadline);
    return (await findMapRecord(trx, mapId))!;
  }));
}

export interface MapChanges {
  title?: string;
  description?: string;
  basemap?: string;
  visibility?: Visibility;
  shortNameBase?: string;
  /** A whole new document: its JSON text (validated by the caller), its bytes and what it references. */
  geojson?: { text: string; bytes: number; media: MediaRefs };
}

/** Applies the given changes (only those present) and moves modified_at. */
export async function updateMap(db: Db, mapId: number, changes: MapChanges): Promise<MapRecord | undefined> {
  return translating(() => db.transaction(async (trx) => {
    const current = await trx('maps').select('owner_id').where({ id: mapId }).forUpdate().first();
    if (!current) return undefined;
    const update: Record<string, unknown> = { modified_at: trx.fn.now() };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.description !== undefined) update.description = changes.description;
    if (changes.basemap !== undefined) update.basemap = changes.basemap;
    if (changes.visibility !== undefined) update.visibility = changes.visibility;
    if (changes.geojson !== undefined) {
      update.geojson = changes.geojson.text;
      update.content_bytes = changes.geojson.bytes;
    }
    if (changes.shortNameBase !== undefined) {
      update.short_name = await freeShortName(trx, Number(current.owner_id), changes.shortNameBase, mapId);
    }
    await trx('maps').where({ id: mapId }).update(update);
    if (changes.geojson) await writeMedia(trx, mapId, changes.geojson.media);
    return findMapRecord(trx, mapId);
  }));
}

/** What the caller hands back once it knows the map's groups and largest feature id. */
export interface PreparedAppend {
  /** The appended features, with their final ids and groups, as the text of a JSON array. */
  features: JsonText;
  groupsToAdd: object[];
  /** Top-level keys of the appended document the map lacks (the map's own keys win). */
  extras: object;
  /** Images and markers the appended features reference. */
  media: MediaRefs;
  added: number;
}

export interface AppendDocument {
  mapId: number;
  requestId: string;
  /** Builds the append from the map's groups, feature count and largest feature id; may throw to refuse it. */
  prepare(current: { groups: object[]; featureCount: number; maxFeatureId: number }): PreparedAppend;
  /** Called with the bytes the map's document will have, before anything is changed; may throw to refuse it. */
  checkSize(bytes: number): void;
  /** The write is cancelled and rolled back when it would end later (a file request's processing limit). */
  deadline?: Deadline;
}

/** The map's document without its features after the append: its own keys win over the extras. */
function appendedHead(rest: Record<string, unknown>, append: PreparedAppend): DocumentHead {
  const head = {} as DocumentHead;
  for (const [key, value] of Object.entries(append.extras)) setOwn(head, key, value);
  for (const [key, value] of Object.entries(rest)) setOwn(head, key, value); // the map's own keys win
  setOwn(head, 'groups', [...((rest.groups as object[] | undefined) ?? []), ...append.groupsToAdd]);
  return head;
}

/**
 * Appends features to a map under the map's row lock (concurrent appends apply one after the
 * other and none is lost). The map's features never come into this process: the appended ones
 * stream into the database, and PostgreSQL joins them to the map's. With the same requestId
 * the append happens at most once.
 */
export async function appendDocument(
  db: Db,
  spec: AppendDocument,
): Promise<{ record: MapRecord; added: number; alreadyApplied: boolean } | undefined> {
  return translating(() => db.transaction(async (trx) => {
    await timeLeft(trx, spec.deadline);
    const locked = await trx('maps').select('id').where({ id: spec.mapId }).forUpdate().first();
    if (!locked) return undefined;
    const done = await trx('import_requests').select('features_added').where({ request_id: spec.requestId }).first();
    if (done) {
      return { record: (await findMapRecord(trx, spec.mapId))!, added: done.features_added, alreadyApplied: true };
    }
    await timeLeft(trx, spec.deadline);
    const facts = (
      await trx.raw(
        `select (geojson - 'features')::text as rest,
                jsonb_array_length(geojson->'features') as feature_count,
                (select coalesce(max((f->>'id')::bigint), 0) from jsonb_array_elements(geojson->'features') f) as max_id,
                content_bytes
           from maps where id = ?`,
        [spec.mapId],
      )
    ).rows[0];
    const rest = JSON.parse(facts.rest) as Record<string, unknown>;
    const featureCount = Number(facts.feature_count);
    const append = spec.prepare({
      groups: (rest.groups as object[] | undefined) ?? [],
      featureCount,
      maxFeatureId: Number(facts.max_id),
    });
    const head = appendedHead(rest, append);
    await timeLeft(trx, spec.deadline);
    let contentBytes: number;
    if (featureCount === 0) {
      // Nothing to join: the new document goes in whole, parsed once.
      contentBytes = await stageJson(trx, documentText(head, append.features));
      spec.checkSize(contentBytes);
      await timeLeft(trx, spec.deadline);
      await trx.raw(`update maps set geojson = s.doc, content_bytes = ?, modified_at = now() from ${STAGED_JSON} s where maps.id = ?`, [
        contentBytes,
        spec.mapId,
      ]);
    } else {
      const arrayBytes = await stageJson(trx, append.features);
      // The map's features, a comma, the new ones; the head may have grown by new groups and keys.
      const headGrowth = Buffer.byteLength(JSON.stringify(head)) - Buffer.byteLength(JSON.stringify(rest));
      contentBytes = Number(facts.content_bytes) + (arrayBytes > 2 ? arrayBytes - 1 : 0) + headGrowth;
      spec.checkSize(contentBytes);
      await timeLeft(trx, spec.deadline);
      await trx.raw(
        `update maps set geojson = jsonb_set(?::jsonb, '{features}', (maps.geojson->'features') || s.doc),
                content_bytes = ?, modified_at = now()
           from ${STAGED_JSON} s where maps.id = ?`,
        [JSON.stringify(head), contentBytes, spec.mapId],
      );
    }
    await addMedia(trx, spec.mapId, append.media);
    await trx('import_requests').insert({ request_id: spec.requestId, map_id: spec.mapId, features_added: append.added });
    stillInTime(spec.deadline);
    return { record: (await findMapRecord(trx, spec.mapId))!, added: append.added, alreadyApplied: false };
  }));
}
