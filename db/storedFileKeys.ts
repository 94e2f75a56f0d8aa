// Which blob keys the database still names, for the orphan sweep of stored files
// (activities/sweepOrphanBlobs.ts): the derivatives of images and markers, and maps' static
// images and thumbnails. A file under those prefixes that no row names was left by a worker that
// stopped between storing it and writing its row (a retry stores new files), or by a removal
// that failed; a day later nothing will name it.
//
// Each key is looked up by index (migrations/026_stored_file_keys.ts) in a join: written as
// `exists (…)` per key, PostgreSQL expects an early match and scans the table instead (57 s for
// 1,000 keys among 100,000 images, against 7 ms joined; bench/storedFileSweep.ts).
import type { Db } from './connection.js';

export async function storedFileKeysInUse(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await db.raw(
    `select k.key from unnest(?::text[]) k(key) join images i on i.derivatives @> jsonb_build_array(jsonb_build_object('key', k.key))
     union
     select k.key from unnest(?::text[]) k(key) join markers m on m.derivatives @> jsonb_build_array(jsonb_build_object('key', k.key))
     union
     select image_files->'static'->>'key' from maps where image_files is not null and image_files->'static'->>'key' = any(?::text[])
     union
     select image_files->'thumbnail'->>'key' from maps where image_files is not null and image_files->'thumbnail'->>'key' = any(?::text[])`,
    [keys, keys, keys, keys],
  );
  return new Set((rows as { key: string }[]).map((row) => row.key));
}
