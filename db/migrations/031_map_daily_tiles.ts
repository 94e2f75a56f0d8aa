import type { Knex } from 'knex';

// Commercial basemap tiles served to the browser with the service's own provider key, per map per
// day beside its page and embed views (db/mapViews.ts): they count toward the heavy-traffic limit
// to classic (lib/browserBasemap.ts), written in batches, never one write per tile.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('map_daily_views', (t) => {
    t.integer('tiles').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('map_daily_views', (t) => t.dropColumn('tiles'));
}
