import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.text('username').notNullable();
    t.text('email').notNullable();
    t.text('password_hash').notNullable();
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // Usernames and e-mail addresses are unique regardless of case.
  await knex.raw('create unique index users_username_lower on users (lower(username))');
  await knex.raw('create unique index users_email_lower on users (lower(email))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
