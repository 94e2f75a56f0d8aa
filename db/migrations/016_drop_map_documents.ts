import type { Knex } from 'knex';

// The documents have moved into heads and rows (015); the column goes.
export async function up(knex: Knex): Promise<void> {
  const left = await knex('maps').count({ n: '*' }).whereNull('head').first();
  if (Number(left?.n ?? 0) > 0) throw new Error(`${left!.n} maps still have their features in a document; run 015 again`);
  await knex.schema.alterTable('maps', (t) => {
    t.dropColumn('geojson');
  });
  await knex.raw("alter table maps alter column head set not null, alter column head set default '{\"type\":\"FeatureCollection\",\"groups\":[]}'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table maps alter column head drop not null, alter column head drop default');
  await knex.schema.alterTable('maps', (t) => {
    t.jsonb('geojson');
  });
}
