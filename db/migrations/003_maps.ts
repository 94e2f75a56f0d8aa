import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('maps', (t) => {
    t.bigIncrements('id');
    t.bigInteger('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('short_name').notNullable();
    t.text('title').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('basemap').notNullable();
    t.text('visibility').notNullable();
    t.boolean('collaborate').notNullable().defaultTo(false);
    t.jsonb('geojson').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('modified_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['owner_id', 'short_name']);
  });
  await knex.raw(
    "alter table maps add constraint maps_visibility_check check (visibility in ('public', 'unlisted', 'private', 'select'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('maps');
}
