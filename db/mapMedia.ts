// map_media: which images and markers a map's features use (it answers map/get's `images` and
// `markers` and keeps the cleanup from deleting what a map shows). Every content write keeps it
// exact in the same transaction: a whole new content replaces the map's rows, an append adds
// what the appended features use, and a change of single features looks again only at the
// media those features used before or use now (map_features' partial indexes on image_id and
// marker_id answer whether any other feature still uses one).
import type { Knex } from 'knex';
import type { MediaRefs } from '../lib/maps.js';

const BATCH = 1000;

/** Adds map_media rows (those the map has already stay as they are). */
export async function addMedia(trx: Knex.Transaction, mapId: number, media: MediaRefs): Promise<void> {
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
