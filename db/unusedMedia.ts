// The cleanup of unused media: images and markers no map uses (no map_media row) and no kept
// version of a map shows (no map_version_changes row: db/mapVersions.ts), uploaded or
// last let go of by a map (released_at, kept by a trigger on map_media) before the cutoff. A
// write that gives a map media locks that media's row first (./mapMedia.ts claimMedia): the
// cleanup skips locked rows, and deletes only after looking at map_media again in a statement of
// its own, which sees every write that committed while it waited. So media a racing write
// references is never deleted; a write that comes after the delete is refused instead.
import type { StoredDerivative } from '../lib/media/records.js';
import { jsonColumn, type Db } from './connection.js';

const TABLES = { image: 'images', marker: 'markers' } as const;
/** The column of a version's kept rows naming the media (a kept version counts as a user: it can be restored). */
const VERSION_COLUMNS = { image: 'image_id', marker: 'marker_id' } as const;

export interface DeletedMedia {
  id: string;
  derivatives: StoredDerivative[];
}


/**
 * Deletes up to `limit` unused images or markers older than the grace period (in one
 * transaction) and returns them with their files' keys, which the caller removes.
 */
export async function deleteUnusedMedia(db: Db, kind: 'image' | 'marker', graceMs: number, limit: number): Promise<DeletedMedia[]> {
  const table = TABLES[kind];
  return db.transaction(async (trx) => {
    const candidates = await trx.raw(
      `select m.id from ${table} m
        where greatest(m.created_at, m.released_at) < now() - make_interval(secs => ?)
          and not exists (select 1 from map_media mm where mm.kind = ? and mm.media_id = m.id)
          and not exists (select 1 from map_version_changes c where c.${VERSION_COLUMNS[kind]} = m.id)
        order by m.id
        limit ?
        for update skip locked`,
      [graceMs / 1000, kind, limit],
    );
    const ids = (candidates.rows as { id: string }[]).map((row) => row.id);
    if (ids.length === 0) return [];
    const deleted = await trx.raw(
      `delete from ${table} m
        where m.id = any(?::text[])
          and not exists (select 1 from map_media mm where mm.kind = ? and mm.media_id = m.id)
          and not exists (select 1 from map_version_changes c where c.${VERSION_COLUMNS[kind]} = m.id)
        returning m.id, m.derivatives`,
      [ids, kind],
    );
    return (deleted.rows as { id: string; derivatives: unknown }[])
      .map((row) => ({ id: row.id, derivatives: jsonColumn<StoredDerivative[]>(row.derivatives) }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  });
}
