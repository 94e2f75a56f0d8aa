import type { Knex } from 'knex';

// Uploaded images: metadata here, the resized files in the blob store under blob_prefix.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('images', (t) => {
    t.text('id').primary();
    t.bigInteger('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.text('tip_color').notNullable();
    t.text('avg_color').notNullable();
    t.boolean('has_gps').notNullable().defaultTo(false);
    t.jsonb('geometry');
    t.text('date_str');
    t.text('date_iso');
    t.text('blob_prefix').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('images');
}
