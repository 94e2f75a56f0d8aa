import type { Knex } from 'knex';

// The basemap catalogue (lib/basemaps.ts, issue 11) replaced the first list of ids: the free tile
// services (OpenStreetMap, CARTO) are gone in favour of the built-in basemaps the service draws
// itself, so a map shows with no internet. Maps that named them get the nearest built-in one.
const RENAMED: Record<string, string> = {
  osm: 'classic',
  'osm-humanitarian': 'classic',
  'carto-light': 'light',
  'carto-dark': 'dark',
};

export async function up(knex: Knex): Promise<void> {
  for (const [from, to] of Object.entries(RENAMED)) await knex('maps').where({ basemap: from }).update({ basemap: to });
}

export async function down(): Promise<void> {
  // Which maps named the old ids is not kept: nothing to bring back.
}
