import type { Knex } from 'knex';

// Sign-ups waiting for their e-mail link (issue 24): an account is made only when the link sent
// to its address is opened, so that a sign-up answers the same whether or not the address
// belongs to an account already (lib/signups.ts). A waiting sign-up holds its username for a
// day (unique regardless of case, as users' are); a newer sign-up with the same username and
// address takes its place, and an expired one gives the username back.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signups', (t) => {
    t.text('token_hash').primary(); // sha256 of the link's token, hex
    t.text('username').notNullable();
    t.text('email').notNullable();
    t.text('password_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await knex.raw('create unique index signups_username_lower on signups (lower(username))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signups');
}
