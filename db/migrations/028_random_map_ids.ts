import type { Knex } from 'knex';

// New maps' ids are random (issue 24; lib/mapIds.ts, db/maps.ts chooseMapId), never a count: the
// sequence that numbered maps goes, so nothing can hand out the next number any more. Existing
// maps keep their ids.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table maps alter column id drop default');
  await knex.raw('drop sequence if exists maps_id_seq');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create sequence maps_id_seq owned by maps.id');
  await knex.raw("select setval('maps_id_seq', (select coalesce(max(id), 0) + 1 from maps), false)");
  await knex.raw("alter table maps alter column id set default nextval('maps_id_seq')");
}
