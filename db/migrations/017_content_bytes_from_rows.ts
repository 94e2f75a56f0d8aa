import type { Knex } from 'knex';

// content_bytes (013) becomes what PostgreSQL works out from the head and the features' bytes:
// the size of the document map/get answers — the head's text with ,"features":[…] before its
// closing brace ({"features":[…]} for an empty head), the features separated by commas
// (lib/formats/documentFile.ts's documentBytes says the same). Every write keeps head,
// feature_count and features_bytes; no write can leave the size behind.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.dropColumn('content_bytes');
  });
  await knex.raw(`alter table maps add column content_bytes bigint not null generated always as (
    case when head = '{}' then 15 else octet_length(head) + 14 end + features_bytes + greatest(feature_count - 1, 0)
  ) stored`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.dropColumn('content_bytes');
  });
  await knex.schema.alterTable('maps', (t) => {
    t.bigInteger('content_bytes').notNullable().defaultTo(0);
  });
  await knex.raw(`update maps set content_bytes = case when head = '{}' then 15 else octet_length(head) + 14 end + features_bytes + greatest(feature_count - 1, 0)`);
}
