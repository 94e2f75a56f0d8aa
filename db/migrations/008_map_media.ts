import type { Knex } from 'knex';

// Which map uses which image or marker. Rewritten with every GeoJSON write; answers a map's
// images/markers and tells the cleanup what is no longer used. No foreign key to images or
// markers: a document may name an id that was never uploaded, and that must not block a save.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('map_media', (t) => {
    t.bigInteger('map_id').notNullable().references('maps.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('media_id').notNullable();
    t.primary(['map_id', 'kind', 'media_id']);
    t.index(['kind', 'media_id']);
  });
  await knex.raw("alter table map_media add constraint map_media_kind_check check (kind in ('image', 'marker'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('map_media');
}
