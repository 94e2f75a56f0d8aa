import type { Knex } from 'knex';

// One row per applied upload or append request, written in the same transaction as the map
// change: a retried activity or a repeated Idempotency-Key finds it and changes nothing again.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_requests', (t) => {
    t.text('request_id').primary();
    t.bigInteger('map_id').notNullable().references('maps.id').onDelete('CASCADE');
    t.integer('features_added').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('import_requests');
}
