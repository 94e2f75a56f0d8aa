import type { Knex } from 'knex';

// When an image or marker stopped being used by a map. The cleanup of unused media deletes what
// no map uses and was neither uploaded nor let go of by a map within the grace period: a client
// may upload first and save the map later, and an editor that takes an image out of a map and
// puts it back an hour later finds it still there. A trigger on map_media sets it, so every path
// that drops a reference (a replaced content, a changed feature, a deleted map or account) does.
// The rows are locked in id order first: two writes letting go of the same media at once queue
// instead of deadlocking.
export async function up(knex: Knex): Promise<void> {
  for (const table of ['images', 'markers']) {
    await knex.schema.alterTable(table, (t) => {
      t.timestamp('released_at', { useTz: true });
    });
  }
  await knex.raw(`create function release_map_media() returns trigger language plpgsql as $$
    begin
      perform 1 from images where id in (select media_id from released where kind = 'image') order by id for no key update;
      update images set released_at = now() where id in (select media_id from released where kind = 'image');
      perform 1 from markers where id in (select media_id from released where kind = 'marker') order by id for no key update;
      update markers set released_at = now() where id in (select media_id from released where kind = 'marker');
      return null;
    end $$`);
  await knex.raw(`create trigger map_media_release after delete on map_media
    referencing old table as released for each statement execute function release_map_media()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger map_media_release on map_media');
  await knex.raw('drop function release_map_media()');
  for (const table of ['images', 'markers']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('released_at');
    });
  }
}
