import type { Knex } from 'knex';

// A map's versions (issue 13: the editor's History) as what each content write changed, not as
// snapshots: a snapshot per save costs the whole map (a 100,000-point map is ~15 MB of text) on
// every save, while this costs what the save touched. A version is the map's content right after
// one content write (a web save, a restore, an API upload, replace or append); its row says who,
// when, what kind of write and how much it changed, the map's next feature id after it, and the
// head before it when the write changed the head. map_version_changes holds, for each feature the
// write changed or deleted, its whole row as it was before the write (feature null: it did not
// exist). A new feature gets an id at or above the map's next feature id, so it needs no row:
// whatever has an id at or above a version's next id did not exist in that version. Any version
// is put together by walking back from the current rows (db/mapVersions.ts).
//
// Nothing wrote map_versions before (its snapshot column was planned, never used); its rows, if
// any, could not be walked back to and are dropped.
async function lz4Available(knex: Knex): Promise<boolean> {
  const result = await knex.raw("select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)");
  return result.rows.length > 0;
}

export async function up(knex: Knex): Promise<void> {
  await knex('map_versions').delete();
  await knex.schema.alterTable('map_versions', (t) => {
    t.dropColumn('geojson');
    t.dropColumn('title');
    t.bigInteger('revision').notNullable();
    /** save (web editor), restore (of an earlier version), create (upload or new map), replace (map/update with a document), append. */
    t.text('kind').notNullable();
    t.bigInteger('next_feature_id').notNullable();
    t.text('head_before');
    t.integer('added').notNullable().defaultTo(0);
    t.integer('changed').notNullable().defaultTo(0);
    t.integer('deleted').notNullable().defaultTo(0);
    t.integer('feature_count').notNullable().defaultTo(0);
    /** A restore: the revision of the version it brought back. */
    t.bigInteger('restored_revision');
    t.unique(['map_id', 'revision']);
  });
  await knex.schema.createTable('map_version_changes', (t) => {
    t.bigInteger('version_id').notNullable().references('map_versions.id').onDelete('CASCADE');
    t.bigInteger('feature_id').notNullable();
    // The feature's row before the write (all null but the id: it did not exist).
    t.text('feature');
    t.bigInteger('ordinal');
    t.text('group_id');
    t.double('min_lon');
    t.double('min_lat');
    t.double('max_lon');
    t.double('max_lat');
    t.text('image_id');
    t.text('marker_id');
    t.primary(['version_id', 'feature_id']);
  });
  // The media cleanup keeps what a kept version shows.
  await knex.raw('create index map_version_changes_images on map_version_changes (image_id) where image_id is not null');
  await knex.raw('create index map_version_changes_markers on map_version_changes (marker_id) where marker_id is not null');
  if (await lz4Available(knex)) await knex.raw('alter table map_version_changes alter column feature set compression lz4');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('map_version_changes');
  await knex('map_versions').delete();
  await knex.schema.alterTable('map_versions', (t) => {
    t.dropUnique(['map_id', 'revision']);
    for (const column of ['revision', 'kind', 'next_feature_id', 'head_before', 'added', 'changed', 'deleted', 'feature_count', 'restored_revision']) t.dropColumn(column);
    t.text('title').notNullable().defaultTo('');
    t.jsonb('geojson').notNullable().defaultTo('{}');
  });
}
