import type { Knex } from 'knex';
import { newLinkKey } from '../../lib/linkKeys.js';

// Unlisted maps' link keys (issue 24): the unguessable part of every address of an unlisted map
// (lib/linkKeys.ts), so that it is reached only by whoever was given its link, never by counting
// ids or guessing a short name. Every unlisted map gets a key here, so its earlier addresses
// (`/{owner}/{short name}`, `/embed/{id}`) no longer open it to others; its owner finds the new
// link in the map page's Share section and in map/list's `url`. A map has a key exactly while it
// is unlisted (the check).
const BATCH = 1_000;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('maps', (t) => t.text('link_key'));
  for (;;) {
    const ids = await knex('maps').where({ visibility: 'unlisted' }).whereNull('link_key').limit(BATCH).pluck('id');
    if (ids.length === 0) break;
    const rows = ids.map((id) => knex.raw('(?::bigint, ?)', [String(id), newLinkKey()]));
    await knex.raw(`update maps set link_key = k.key from (values ${rows.map(() => '?').join(', ')}) as k(id, key) where maps.id = k.id`, rows);
  }
  await knex.raw("alter table maps add constraint maps_link_key_check check ((visibility = 'unlisted') = (link_key is not null))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table maps drop constraint maps_link_key_check');
  await knex.schema.alterTable('maps', (t) => t.dropColumn('link_key'));
}
