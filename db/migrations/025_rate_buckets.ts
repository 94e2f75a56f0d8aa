import type { Knex } from 'knex';

// The token buckets of the API's rate limits when RATE_LIMIT_STORE=postgres (db/rateBuckets.ts):
// one row per API key or client address, shared by every API process. UNLOGGED: a bucket is
// worth nothing after a crash (it would have filled up again), so its writes skip the WAL.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unlogged table rate_buckets (
      subject text primary key,
      tokens double precision not null,
      refreshed_at timestamptz not null,
      granted boolean not null
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_buckets');
}
