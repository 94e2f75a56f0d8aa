import type { Knex } from 'knex';

// Map documents are large JSON values stored out of line (TOAST). The default pglz compression
// doubles the cost of writing one (measured: 709 ms → 313 ms for a 14 MB document) and slows
// reading it back; lz4 is much faster at a similar size. Servers built without lz4 (and PGlite)
// keep the default.
async function lz4Available(knex: Knex): Promise<boolean> {
  const result = await knex.raw(
    "select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)",
  );
  return result.rows.length > 0;
}

export async function up(knex: Knex): Promise<void> {
  if (!(await lz4Available(knex))) return;
  await knex.raw('alter table maps alter column geojson set compression lz4');
  await knex.raw('alter table map_versions alter column geojson set compression lz4');
}

export async function down(knex: Knex): Promise<void> {
  if (!(await lz4Available(knex))) return;
  await knex.raw('alter table maps alter column geojson set compression pglz');
  await knex.raw('alter table map_versions alter column geojson set compression pglz');
}
