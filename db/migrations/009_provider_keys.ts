import type { Knex } from 'knex';

// Per-account keys for commercial basemap providers, one per provider kind.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('provider_keys', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('key').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'provider']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('provider_keys');
}
