import type { Knex } from 'knex';

// Indexes that let the hourly orphan sweep ask "which of these 1,000 stored files does a row
// still name?" (db/storedFileKeys.ts): the derivatives of images and markers (jsonb lists of
// {key, …}) by GIN with jsonb_path_ops, for `derivatives @> [{"key": …}]`; a map's static image
// and thumbnail keys by B-tree. bench/storedFileSweep.ts measures a batch with and without them.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index images_derivatives_keys on images using gin (derivatives jsonb_path_ops)');
  await knex.raw('create index markers_derivatives_keys on markers using gin (derivatives jsonb_path_ops)');
  await knex.raw("create index maps_static_image_key on maps ((image_files->'static'->>'key')) where image_files is not null");
  await knex.raw("create index maps_thumbnail_key on maps ((image_files->'thumbnail'->>'key')) where image_files is not null");
}

export async function down(knex: Knex): Promise<void> {
  for (const index of ['images_derivatives_keys', 'markers_derivatives_keys', 'maps_static_image_key', 'maps_thumbnail_key']) await knex.raw(`drop index if exists ${index}`);
}
