// Applies the migrations in order. The list is explicit so that the same code runs under tsx,
// vitest and a bundler without scanning folders.
import type { Knex } from 'knex';
import type { Db } from './connection.js';
import * as m001 from './migrations/001_users.js';
import * as m002 from './migrations/002_api_keys.js';
import * as m003 from './migrations/003_maps.js';
import * as m004 from './migrations/004_map_members.js';
import * as m005 from './migrations/005_map_versions.js';
import * as m006 from './migrations/006_images.js';
import * as m007 from './migrations/007_markers.js';
import * as m008 from './migrations/008_map_media.js';
import * as m009 from './migrations/009_provider_keys.js';
import * as m010 from './migrations/010_import_requests.js';
import * as m011 from './migrations/011_media_derivatives.js';
import * as m012 from './migrations/012_geojson_lz4.js';
import * as m013 from './migrations/013_map_content_bytes.js';
import * as m014 from './migrations/014_map_features.js';
import * as m015 from './migrations/015_move_features_to_rows.js';
import * as m016 from './migrations/016_drop_map_documents.js';
import * as m017 from './migrations/017_content_bytes_from_rows.js';
import * as m018 from './migrations/018_media_released_at.js';
import * as m019 from './migrations/019_basemap_catalogue.js';
import * as m020 from './migrations/020_map_image_files.js';
import * as m021 from './migrations/021_web_accounts.js';
import * as m022 from './migrations/022_map_addresses_and_views.js';
import * as m023 from './migrations/023_feature_revisions.js';
import * as m024 from './migrations/024_versions_as_changes.js';
import * as m025 from './migrations/025_rate_buckets.js';
import * as m026 from './migrations/026_stored_file_keys.js';
import * as m027 from './migrations/027_map_link_keys.js';
import * as m028 from './migrations/028_random_map_ids.js';
import * as m029 from './migrations/029_signups.js';
import * as m030 from './migrations/030_login_addresses.js';
import * as m031 from './migrations/031_map_daily_tiles.js';
import * as m032 from './migrations/032_description_html.js';
import * as m033 from './migrations/033_webhooks.js';

type Migration = { up: (knex: Knex) => Promise<void>; down: (knex: Knex) => Promise<void>; config?: { transaction?: boolean } };

const migrations: Record<string, Migration> = {
  '001_users': m001,
  '002_api_keys': m002,
  '003_maps': m003,
  '004_map_members': m004,
  '005_map_versions': m005,
  '006_images': m006,
  '007_markers': m007,
  '008_map_media': m008,
  '009_provider_keys': m009,
  '010_import_requests': m010,
  '011_media_derivatives': m011,
  '012_geojson_lz4': m012,
  '013_map_content_bytes': m013,
  '014_map_features': m014,
  '015_move_features_to_rows': m015,
  '016_drop_map_documents': m016,
  '017_content_bytes_from_rows': m017,
  '018_media_released_at': m018,
  '019_basemap_catalogue': m019,
  '020_map_image_files': m020,
  '021_web_accounts': m021,
  '022_map_addresses_and_views': m022,
  '023_feature_revisions': m023,
  '024_versions_as_changes': m024,
  '025_rate_buckets': m025,
  '026_stored_file_keys': m026,
  '027_map_link_keys': m027,
  '028_random_map_ids': m028,
  '029_signups': m029,
  '030_login_addresses': m030,
  '031_map_daily_tiles': m031,
  '032_description_html': m032,
  '033_webhooks': m033,
};

/** The migrations in order, up to and including `last` (all of them without it). */
export function migrationSource(last?: string): Knex.MigrationSource<string> {
  const names = Object.keys(migrations);
  if (last !== undefined && !names.includes(last)) throw new Error(`no migration ${last}`);
  return {
    getMigrations: async () => (last === undefined ? names : names.slice(0, names.indexOf(last) + 1)),
    getMigrationName: (name) => name,
    getMigration: async (name) => migrations[name] as Migration,
  };
}

const source = migrationSource();

/** Applies what is missing. Several processes may start at once: whoever finds the lock taken waits. */
export async function migrateToLatest(db: Db): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await db.migrate.latest({ migrationSource: source });
      return;
    } catch (error) {
      const locked = (error as Error).name === 'MigrationLocked' || /already locked/i.test((error as Error).message);
      if (!locked || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
