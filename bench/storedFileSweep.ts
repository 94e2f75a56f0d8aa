// What the hourly sweep of stored files costs the database (README "Media"): every stored file
// (image and marker derivatives, maps' static images) is listed from the blob store and looked up
// 1,000 keys a query (db/storedFileKeys.ts). On a scratch PostgreSQL database holding 100,000
// images (3 derivatives each), 20,000 markers and 50,000 maps with static images and thumbnails —
// 420,000 stored files — the lookup of a batch: 1,000 keys in use, and 1,000 no row names (orphans).
// With and without migration 026's indexes, to show what they buy.
import { randomUUID } from 'node:crypto';
import { openDb } from '../db/connection.js';
import { createScratchDatabase } from '../db/scratchDatabase.js';
import { storedFileKeysInUse } from '../db/storedFileKeys.js';
import { summarize } from './stats.js';

const IMAGES = 100_000;
const MARKERS = 20_000;
const MAPS = 50_000;
const BATCHES = 20;

const round = (value: number) => Math.round(value * 10) / 10;

export async function benchStoredFileSweep() {
  const scratch = await createScratchDatabase('sweep');
  if (!scratch) throw new Error('The sweep benchmark needs PostgreSQL on 127.0.0.1:5432');
  const db = openDb({ databaseUrl: scratch.url, pgliteDir: undefined });
  try {
    const [owner] = await db('users').insert({ username: 'sweeper', email: 'sweeper@example.com', password_hash: 'x' }).returning('id');
    const ownerId = (owner as { id: number }).id;
    const derivative = (prefix: string) => `jsonb_build_object('name', 'x', 'key', '${prefix}/' || gen_random_uuid(), 'size', 1, 'width', 1, 'height', 1, 'contentType', 'image/jpeg')`;
    await db.raw(
      `insert into images (id, owner_id, width, height, tip_color, avg_color, blob_prefix, derivatives)
       select substr(md5(i::text), 1, 16), ?, 1, 1, '#000000', '#000000', 'images', jsonb_build_array(${derivative('images')}, ${derivative('images')}, ${derivative('images')})
       from generate_series(1, ?) i`,
      [ownerId, IMAGES],
    );
    await db.raw(
      `insert into markers (id, owner_id, width, height, blob_prefix, derivatives)
       select substr(md5('m' || i::text), 1, 16), ?, 1, 1, 'markers', jsonb_build_array(${derivative('markers')})
       from generate_series(1, ?) i`,
      [ownerId, MARKERS],
    );
    const file = `jsonb_build_object('key', 'map-images/' || gen_random_uuid(), 'size', 1, 'width', 1, 'height', 1)`;
    // Map ids are chosen by whoever inserts (no sequence numbers maps): ids of this owner's own.
    await db.raw(
      `insert into maps (id, owner_id, short_name, title, description, basemap, visibility, image_files)
       select ? * 1000000 + i, ?, 'map-' || i, 'Map', '', 'classic', 'private', jsonb_build_object('static', ${file}, 'thumbnail', ${file}, 'renderedAt', now())
       from generate_series(1, ?) i`,
      [ownerId, ownerId, MAPS],
    );
    // As autovacuum leaves it: the GIN indexes' pending lists merged (a fresh bulk insert scans them linearly).
    await db.raw('vacuum analyze');
    const used = (
      await db.raw(`(select d->>'key' as key from images, jsonb_array_elements(derivatives) d order by random() limit ?)
                     union all (select image_files->'static'->>'key' from maps order by random() limit ?)`, [BATCHES * 700, BATCHES * 300])
    ).rows.map((row: { key: string }) => row.key) as string[];
    const timeBatches = async (keysOf: (batch: number) => string[], expected: (batch: string[]) => number) => {
      const samples: number[] = [];
      for (let batch = 0; batch < BATCHES; batch++) {
        const keys = keysOf(batch);
        const started = performance.now();
        const inUse = await storedFileKeysInUse(db, keys);
        samples.push(performance.now() - started);
        if (inUse.size !== expected(keys)) throw new Error(`batch ${batch}: ${inUse.size} in use, expected ${expected(keys)}`);
      }
      return summarize(samples);
    };
    const inUseBatch = (batch: number) => used.slice(batch * 1000, batch * 1000 + 1000);
    const orphanBatch = () => Array.from({ length: 1000 }, () => `images/${randomUUID()}`);
    const indexed = { inUse: await timeBatches(inUseBatch, (keys) => keys.length), orphans: await timeBatches(orphanBatch, () => 0) };
    for (const index of ['images_derivatives_keys', 'markers_derivatives_keys', 'maps_static_image_key', 'maps_thumbnail_key']) await db.raw(`drop index ${index}`);
    const unindexed = { inUse: await timeBatches((batch) => inUseBatch(batch).slice(0, 50), (keys) => keys.length) };
    const storedFiles = IMAGES * 3 + MARKERS + MAPS * 2;
    const perBatch = Math.max(indexed.inUse.median, indexed.orphans.median);
    return {
      storedFiles,
      batchOf1000Ms: { inUse: indexed.inUse, orphans: indexed.orphans },
      withoutIndexesBatchOf50Ms: unindexed.inUse,
      wholeSweepLookupsSeconds: round(((storedFiles / 1000) * perBatch) / 1000),
    };
  } finally {
    await db.destroy();
    await scratch.drop();
  }
}
