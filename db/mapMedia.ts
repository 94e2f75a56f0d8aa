// map_media: which images and markers a map's features use (it answers map/get's `images` and
// `markers` and keeps the cleanup from deleting what a map shows). Every content write keeps it
// exact in the same transaction: a whole new content replaces the map's rows, an append adds
// what the appended features use, and a change of single features looks again only at the
// media those features used before or use now (map_features' partial indexes on image_id and
// marker_id answer whether any other feature still uses one).
import type { Knex } from 'knex';
import type { MediaRefs } from '../lib/maps.js';
import { MediaNotLinkable } from './errors.js';

const BATCH = 1000;

const TABLE = { image: 'images', marker: 'markers' } as const;

/**
 * The media a write gives the map must be uploaded by the map's owner or one of its editors
 * (members with the editor role); throws MediaNotLinkable for the first that is not (or does
 * not exist). Their rows stay locked (FOR KEY SHARE) until the transaction ends, so the cleanup
 * of unused media, which skips locked rows and looks at map_media again before it deletes,
 * cannot delete one this write is about to reference. Call it after the map row exists.
 */
export async function claimMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
  for (const kind of ['image', 'marker'] as const) {
    const ids = [...new Set(kind === 'image' ? media.images : media.markers)].sort();
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const result = await trx.raw(
        `select m.id from ${TABLE[kind]} m
          where m.id = any(?::text[])
            and (m.owner_id = (select owner_id from maps where id = ?)
                 or m.owner_id in (select user_id from map_members where map_id = ? and role = 'editor'))
          order by m.id
          for key share of m`,
        [batch, mapId, mapId],
      );
      const found = new Set((result.rows as { id: string }[]).map((row) => row.id));
      const missing = batch.find((id) => !found.has(id));
      if (missing !== undefined) throw new MediaNotLinkable(kind, missing);
    }
  }
}

/** The images and markers some feature rows use, each once. */
export function mediaOfRows(rows: readonly { image: string | null; marker: string | null }[]): MediaRefs {
  const images = new Set<string>();
  const markers = new Set<string>();
  for (const row of rows) {
    if (row.image !== null) images.add(row.image);
    if (row.marker !== null) markers.add(row.marker);
  }
  return { images: [...images], markers: [...markers] };
}

/** Adds map_media rows (those the map has already stay as they are), after claimMedia. */
export async function addMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
  await claimMedia(trx, mapId, media);
  const rows = [
    ...media.images.map((id) => ({ map_id: mapId, kind: 'image', media_id: id })),
    ...media.markers.map((id) => ({ map_id: mapId, kind: 'marker', media_id: id })),
  ];
  for (let i = 0; i < rows.length; i += BATCH) {
    await trx('map_media').insert(rows.slice(i, i + BATCH)).onConflict(['map_id', 'kind', 'media_id']).ignore();
  }
}

/** Replaces the map's map_media rows. */
export async function replaceMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
  await trx('map_media').where({ map_id: mapId }).delete();
  await addMedia(trx, mapId, media);
}

const COLUMN = { image: 'image_id', marker: 'marker_id' } as const;

/**
 * Makes map_media right for the given media after some of the map's features changed: each is
 * listed when a feature still uses it, and not otherwise.
 */
export async function recheckMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
  for (const kind of ['image', 'marker'] as const) {
    const ids = kind === 'image' ? media.images : media.markers;
    if (ids.length === 0) continue;
    const column = COLUMN[kind];
    await trx.raw(
      `delete from map_media mm where mm.map_id = ? and mm.kind = ? and mm.media_id = any(?::text[])
         and not exists (select 1 from map_features f where f.map_id = mm.map_id and f.${column} = mm.media_id)`,
      [mapId, kind, ids],
    );
    await trx.raw(
      `insert into map_media (map_id, kind, media_id)
         select ?, ?, m.id from unnest(?::text[]) m(id)
          where exists (select 1 from map_features f where f.map_id = ? and f.${column} = m.id)
         on conflict (map_id, kind, media_id) do nothing`,
      [mapId, kind, ids, mapId],
    );
  }
}
