import type { Knex } from 'knex';

// Uploaded point icons: metadata here, the resized PNGs in the blob store under blob_prefix.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('markers', (t) => {
    t.text('id').primary();
    t.bigInteger('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.text('blob_prefix').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('markers');
}
