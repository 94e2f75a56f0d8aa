import type { Knex } from 'knex';

// The client addresses each account has logged in from (issue 24): failed log-ins from an
// address the account knows count only against that address, so other people's failures never
// keep the owner out; failures from anywhere else share one limit per account
// (lib/loginLimits.ts). An address counts as known for 60 days after its last log-in.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_addresses', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('address').notNullable(); // IPv4, or an IPv6 /64 (api/clientAddress.ts)
    t.timestamp('last_login_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'address']);
    t.index(['last_login_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_addresses');
}
