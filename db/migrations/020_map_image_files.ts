import type { Knex } from 'knex';

// A map's static image and its thumbnail (issue 11): the blob keys and sizes of the PNGs the
// renderer stored last, and when. Null until a map's first image exists; its address then
// serves a placeholder.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.jsonb('image_files');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.dropColumn('image_files');
  });
}
