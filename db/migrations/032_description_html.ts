import type { Knex } from 'knex';

// A map's description as the HTML its page shows, rendered once when the description is saved
// (lib/markdown/: in a thread, within a time budget) instead of on every view. Null: not
// rendered yet — the maps of before this migration, rendered (off the event loop) at their
// page's first view and kept (db/maps.ts, storeDescriptionHtml).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => {
    t.text('description_html').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => t.dropColumn('description_html'));
}
