import type { Knex } from 'knex';

// Saved versions of a map's content; only saves in the web application create them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('map_versions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('map_id').notNullable().references('maps.id').onDelete('CASCADE');
    t.bigInteger('saved_by').references('users.id').onDelete('SET NULL');
    t.text('title').notNullable();
    t.jsonb('geojson').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['map_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('map_versions');
}
