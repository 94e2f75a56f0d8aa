import type { Knex } from 'knex';

// The web application's accounts (issue 12): sessions (a browser's log-in, by the SHA-256 of its
// cookie's token: the database never holds a usable token), single-use account tokens (e-mail
// verification, password reset; also by hash, with the address they verify), and counters for the
// rate limits of log-in, sign-up and reset (per IP and per account, shared by every API process).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.text('id').primary(); // sha256 of the cookie's token, hex
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['user_id']);
  });
  await knex.schema.createTable('account_tokens', (t) => {
    t.text('token_hash').primary();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('purpose').notNullable(); // verify_email | reset_password
    t.text('email').notNullable(); // the address a verification confirms; where a reset was sent
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['user_id', 'purpose']);
  });
  await knex.schema.createTable('rate_limit_hits', (t) => {
    t.text('key').notNullable(); // e.g. login:ip:127.0.0.1, login:user:alice
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['key', 'window_start']);
  });
  await knex.schema.alterTable('users', (t) => {
    // A changed e-mail address waits here until its verification link is followed.
    t.text('pending_email');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.dropColumn('pending_email'));
  await knex.schema.dropTable('rate_limit_hits');
  await knex.schema.dropTable('account_tokens');
  await knex.schema.dropTable('sessions');
}
