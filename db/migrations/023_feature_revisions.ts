import type { Knex } from 'knex';

// When each feature was last written (issue 13: the web editor's saves merge): a feature row's
// `revision` is the map revision its last single-feature write (a web save) made, and a map's
// `replaced_revision` the revision of its last whole-content write (map/update with a geojson),
// which rewrote every row. A row was last changed at the greater of the two; appended rows are
// new ids, which no editor's save can have touched. Rows written before this migration count as
// written at revision 0.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('map_features', (t) => {
    t.bigInteger('revision').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('maps', (t) => {
    t.bigInteger('replaced_revision').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => t.dropColumn('replaced_revision'));
  await knex.schema.alterTable('map_features', (t) => t.dropColumn('revision'));
}
