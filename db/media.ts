// Images and markers: metadata rows whose resized files live in the blob store (the keys are
// listed in `derivatives`). Inserts are idempotent by id, so a retried activity that chose its
// id up front finds its first row instead of making a second.
import type { Knex } from 'knex';
import type { Point } from '../lib/geojson/geometry.js';
import type { ImageRecord, MarkerRecord, ServableMedia, StoredDerivative } from '../lib/media/records.js';
import { jsonColumn, type Db } from './connection.js';

export type NewImage = Omit<ImageRecord, 'createdAt'>;
export type NewMarker = Omit<MarkerRecord, 'createdAt'>;

type Queryable = Db | Knex.Transaction;

const imageColumns = [
  'id',
  'owner_id',
  'width',
  'height',
  'tip_color',
  'avg_color',
  'has_gps',
  'geometry',
  'date_str',
  'date_iso',
  'blob_prefix',
  'derivatives',
  'created_at',
];
const markerColumns = ['id', 'owner_id', 'width', 'height', 'blob_prefix', 'derivatives', 'created_at'];


// eslint-disable-next-line @typescript-eslint/no-explicit-any
const toImage = (row: any): ImageRecord => ({
  id: row.id,
  ownerId: Number(row.owner_id),
  width: row.width,
  height: row.height,
  tipColor: row.tip_color,
  avgColor: row.avg_color,
  hasGps: row.has_gps,
  geometry: row.geometry === null ? null : jsonColumn<Point>(row.geometry),
  dateStr: row.date_str,
  dateIso: row.date_iso,
  blobPrefix: row.blob_prefix,
  derivatives: jsonColumn<StoredDerivative[]>(row.derivatives),
  createdAt: new Date(row.created_at),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const toMarker = (row: any): MarkerRecord => ({
  id: row.id,
  ownerId: Number(row.owner_id),
  width: row.width,
  height: row.height,
  blobPrefix: row.blob_prefix,
  derivatives: jsonColumn<StoredDerivative[]>(row.derivatives),
  createdAt: new Date(row.created_at),
});

/** The new row, or undefined when a row with this id already exists (nothing is changed then). */
export async function insertImage(db: Queryable, image: NewImage): Promise<ImageRecord | undefined> {
  const rows = await db('images')
    .insert({
      id: image.id,
      owner_id: image.ownerId,
      width: image.width,
      height: image.height,
      tip_color: image.tipColor,
      avg_color: image.avgColor,
      has_gps: image.hasGps,
      // pg would send a JS array as a PostgreSQL array: jsonb values go as JSON text.
      geometry: image.geometry === null ? null : JSON.stringify(image.geometry),
      date_str: image.dateStr,
      date_iso: image.dateIso,
      blob_prefix: image.blobPrefix,
      derivatives: JSON.stringify(image.derivatives),
    })
    .onConflict('id')
    .ignore()
    .returning(imageColumns);
  return rows[0] ? toImage(rows[0]) : undefined;
}

/** The new row, or undefined when a row with this id already exists (nothing is changed then). */
export async function insertMarker(db: Queryable, marker: NewMarker): Promise<MarkerRecord | undefined> {
  const rows = await db('markers')
    .insert({
      id: marker.id,
      owner_id: marker.ownerId,
      width: marker.width,
      height: marker.height,
      blob_prefix: marker.blobPrefix,
      derivatives: JSON.stringify(marker.derivatives),
    })
    .onConflict('id')
    .ignore()
    .returning(markerColumns);
  return rows[0] ? toMarker(rows[0]) : undefined;
}

/** Rows for the ids that exist, in the order of `ids` (repeats once); unknown ids are left out. */
async function findByIds<R extends { id: string }>(
  db: Queryable,
  table: string,
  columns: string[],
  ids: readonly string[],
  toRecord: (row: unknown) => R,
  narrow: (query: Knex.QueryBuilder) => Knex.QueryBuilder = (query) => query,
): Promise<R[]> {
  const unique = [...new Set(ids)];
  const found = new Map<string, R>();
  // Chunks keep every statement far below PostgreSQL's 65,535 bind parameters.
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await narrow(db(table).select(columns).whereIn('id', unique.slice(i, i + 1000)));
    for (const row of rows) {
      const record = toRecord(row);
      found.set(record.id, record);
    }
  }
  return unique.flatMap((id) => found.get(id) ?? []);
}

export const findImages = (db: Queryable, ids: readonly string[]): Promise<ImageRecord[]> =>
  findByIds(db, 'images', imageColumns, ids, toImage);

export const findMarkers = (db: Queryable, ids: readonly string[]): Promise<MarkerRecord[]> =>
  findByIds(db, 'markers', markerColumns, ids, toMarker);

/** Whose media a map may use: a map's (its owner's and its editors'), or one user's (a map not made yet). */
export type MediaScope = { mapId: number } | { userId: number };

/** The images among `ids` that the scope may use (see db/mapMedia.ts claimMedia), in the order of `ids`. */
export const findLinkableImages = (db: Queryable, scope: MediaScope, ids: readonly string[]): Promise<ImageRecord[]> =>
  findByIds(db, 'images', imageColumns, ids, toImage, (query) =>
    'mapId' in scope
      ? query.where((owners) =>
          owners
            .whereIn('owner_id', db('maps').select('owner_id').where({ id: scope.mapId }))
            .orWhereIn('owner_id', db('map_members').select('user_id').where({ map_id: scope.mapId, role: 'editor' })),
        )
      : query.where({ owner_id: scope.userId }),
  );

export async function findImage(db: Queryable, id: string): Promise<ImageRecord | undefined> {
  return (await findImages(db, [id]))[0];
}

export async function findMarker(db: Queryable, id: string): Promise<MarkerRecord | undefined> {
  return (await findMarkers(db, [id]))[0];
}

/** The media by id with the access facts for the caller (null: nobody signed in); undefined when there is none. */
export async function findServableMedia(db: Db, kind: 'image' | 'marker', id: string, userId: number | null): Promise<ServableMedia | undefined> {
  const table = kind === 'image' ? 'images' : 'markers';
  const result = await db.raw(
    `select m.derivatives,
            exists (select 1 from map_media mm join maps p on p.id = mm.map_id
                     where mm.kind = :kind and mm.media_id = m.id and p.visibility in ('public', 'unlisted')) as public_use,
            (m.owner_id = :user or exists (
               select 1 from map_media mm join maps p on p.id = mm.map_id
                 left join map_members mb on mb.map_id = p.id and mb.user_id = :user
                where mm.kind = :kind and mm.media_id = m.id
                  and (p.owner_id = :user or (mb.role = 'editor' and p.collaborate) or (mb.role = 'viewer' and p.visibility = 'select'))
             )) as caller_may_see
       from ${table} m where m.id = :id`,
    { kind, id, user: userId },
  );
  const row = result.rows[0] as { derivatives: unknown; public_use: boolean; caller_may_see: boolean | null } | undefined;
  if (!row) return undefined;
  return { derivatives: jsonColumn<StoredDerivative[]>(row.derivatives), publicUse: row.public_use, callerMaySee: row.caller_may_see === true };
}
