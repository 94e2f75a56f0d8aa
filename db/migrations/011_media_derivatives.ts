import type { Knex } from 'knex';

// The resized files of each image and marker: a list of {name, width, height, contentType,
// key, size}, one per derivative. The blob store chooses its own keys, so the row lists them
// (blob_prefix alone cannot find them).
export async function up(knex: Knex): Promise<void> {
  for (const table of ['images', 'markers']) {
    await knex.schema.alterTable(table, (t) => {
      t.jsonb('derivatives').notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['images', 'markers']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('derivatives');
    });
  }
}
