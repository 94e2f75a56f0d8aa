// The basemap catalogue through the API (basemap/list, the ids map/update accepts) and the
// migration of maps that named ids the catalogue no longer has.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.js';
import { databaseUpTo } from '../support/databases.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

describe('basemap/list', () => {
  it('answers the catalogue: the built-in basemaps first, each commercial one with its provider kind', async () => {
    const { basemaps } = await service.call('basemap/list', key, {});
    expect(basemaps.slice(0, 3)).toEqual([
      { id: 'classic', name: 'Classic', attribution: 'Made with Natural Earth', provider_kind: null },
      { id: 'light', name: 'Light', attribution: 'Made with Natural Earth', provider_kind: null },
      { id: 'dark', name: 'Dark', attribution: 'Made with Natural Earth', provider_kind: null },
    ]);
    for (const basemap of basemaps) {
      expect(Object.keys(basemap).sort()).toEqual(['attribution', 'id', 'name', 'provider_kind']);
      expect(basemap.attribution).not.toBe('');
    }
    // Every provider kind of the spec's provider keys page has a basemap.
    expect(new Set(basemaps.map((b: { provider_kind: string | null }) => b.provider_kind))).toEqual(
      new Set([null, 'map_platform', 'location_platform', 'gis_platform', 'tile_provider']),
    );
    expect((await service.call('basemap/list', null, {})).error_code).toBe('missing_api_key');
    expect((await service.call('basemap/list', key, { kind: 'all' })).error_code).toBe('invalid_arguments');
  });

  it('is what map/update accepts, and nothing else', async () => {
    const id = (await service.send('map/upload', key, { file_type: 'empty', visibility: 'public' })).id;
    expect((await service.call('map/get', key, { map_id: id })).basemap).toBe('classic');
    const { basemaps } = await service.call('basemap/list', key, {});
    for (const { id: basemap } of basemaps) {
      expect((await service.call('map/update', key, { map_id: id, basemap })).error).toBeUndefined();
      expect((await service.call('map/get', key, { map_id: id })).basemap).toBe(basemap);
    }
    for (const basemap of ['osm', 'carto-dark', 'Classic', '']) {
      const answer = await service.call('map/update', key, { map_id: id, basemap });
      expect(answer.error_code).toBe('invalid_arguments');
      expect(answer.error).toMatch(/"basemap" must be one of classic, light, dark/);
    }
  });
});

const kinds: ('pg' | 'pglite')[] = inject('databaseUrl') === null ? ['pglite'] : ['pg', 'pglite'];

describe.each(kinds)('migration 019 on %s', (kind) => {
  it('gives maps that named a tile service of the first list the nearest built-in basemap', async () => {
    const database = await databaseUpTo(kind, '018_media_released_at');
    try {
      const { db } = database;
      const name = `u${randomBytes(4).toString('hex')}`;
      const [user] = await db('users').insert({ username: name, email: `${name}@example.com`, password_hash: 'x', email_verified: true }).returning('id');
      const before = { osm: 'classic', 'osm-humanitarian': 'classic', 'carto-light': 'light', 'carto-dark': 'dark', 'mapbox-streets': 'mapbox-streets' };
      for (const [i, basemap] of Object.keys(before).entries()) {
        await db('maps').insert({ owner_id: user.id, short_name: `m${i}`, title: 'm', description: '', basemap, visibility: 'public', head: '{}' });
      }
      await migrateToLatest(db);
      const rows = await db('maps').where({ owner_id: user.id }).orderBy('short_name').select('basemap');
      expect(rows.map((row) => row.basemap)).toEqual(Object.values(before));
    } finally {
      await database.drop();
    }
  });
});
