import type { Knex } from 'knex';

// Webhooks (issue 28): an owner's HTTPS endpoints, for one map or all their maps (map_id null),
// with the events they want and the secret deliveries are signed with; and each delivery of an
// event to an endpoint, with its status and the last response code, which the owner sees. The
// delivery's payload is kept here: its Temporal workflow carries only the delivery's id.
// webhooks.map_id is no foreign key: a map's endpoints outlive it, so map.deleted reaches them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('map_id').nullable();
    t.text('url').notNullable();
    t.jsonb('events').notNullable();
    t.text('secret').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    // When the endpoint's deliveries began to fail (null: the last one succeeded).
    t.timestamp('failing_since', { useTz: true }).nullable();
    t.timestamp('disabled_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['owner_id']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    t.text('event_type').notNullable();
    t.text('payload').notNullable();
    // pending → delivered, or retrying → delivered | failed.
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('response_code').nullable();
    t.text('last_error').nullable();
    // The first failed attempt: an endpoint failing since then when the delivery is given up has failed all its retry time.
    t.timestamp('first_failed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.unique(['webhook_id', 'event_id']);
    t.index(['webhook_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhooks');
}
