import type { Knex } from 'knex';

// A map's earlier addresses and its page views (issue 12). A renamed map keeps answering at its
// old short names (the web page redirects there) until another of the owner's maps takes one.
// Views of a map's page and embed are counted per day, and a map on a commercial basemap shown
// with the service's key (its owner has none) is limited to the classic basemap until
// `classic_until` once a day's views pass the limit.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('map_old_short_names', (t) => {
    t.bigInteger('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('short_name').notNullable();
    t.bigInteger('map_id').notNullable().references('maps.id').onDelete('CASCADE');
    t.timestamp('renamed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['owner_id', 'short_name']);
    t.index(['map_id']);
  });
  await knex.schema.createTable('map_daily_views', (t) => {
    t.bigInteger('map_id').notNullable().references('maps.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('views').notNullable().defaultTo(0);
    t.primary(['map_id', 'day']);
  });
  await knex.schema.alterTable('maps', (t) => {
    t.timestamp('classic_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => t.dropColumn('classic_until'));
  await knex.schema.dropTable('map_daily_views');
  await knex.schema.dropTable('map_old_short_names');
}
