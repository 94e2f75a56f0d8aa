import type { Knex } from 'knex';

// The size of each map's GeoJSON text, kept by every write: a map may hold at most 64 MB
// (lib/geojson/sizeLimits.ts), and an append checks the sum without reading the document.
// Maps written before this column get the length of PostgreSQL's own text of the document
// (a little more than the compact text the writes count, so never less than the truth).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.bigInteger('content_bytes').notNullable().defaultTo(0);
  });
  await knex.raw('update maps set content_bytes = octet_length(geojson::text)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.dropColumn('content_bytes');
  });
}
