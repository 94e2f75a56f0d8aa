import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, featureCollection, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

const newMap = async (title = 'Original') =>
  (await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title, description: 'desc' }, JSON.stringify(featureCollection(3)))).id as number;

describe('map/update', () => {
  it('changes only the included arguments and moves modified_date', async () => {
    const id = await newMap();
    const before = await service.call('map/get', key, { map_id: id });
    await new Promise((r) => setTimeout(r, 20));
    const body = await service.call('map/update', key, { map_id: id, title: 'New title' });
    expect(Object.keys(body).sort()).toEqual(['id', 'owner', 'short_name', 'title', 'url', 'visibility']);
    expect(body.title).toBe('New title');
    const after = await service.call('map/get', key, { map_id: id });
    expect({ ...after, title: before.title, modified_date: before.modified_date }).toEqual(before);
    expect(Date.parse(after.modified_date)).toBeGreaterThan(Date.parse(before.modified_date));
    expect(after.created_date).toBe(before.created_date);
  });

  it('updates description, basemap, visibility and short name', async () => {
    const id = await newMap();
    await service.send('map/upload', key, { file_type: 'empty', visibility: 'public', short_name: 'taken' });
    const body = await service.call('map/update', key, {
      map_id: id,
      description: 'new',
      basemap: 'dark',
      visibility: 'unlisted',
      short_name: 'Taken',
    });
    expect(body).toMatchObject({ visibility: 'unlisted', short_name: 'taken-2' });
    expect(body.url).toMatch(/\/taken-2~[A-Z]{22}$/); // an unlisted map's link carries its key
    const map = await service.call('map/get', key, { map_id: id });
    expect(map).toMatchObject({ description: 'new', basemap: 'dark', visibility: 'unlisted', short_name: 'taken-2' });
    // Setting the short name a map already has keeps it.
    expect((await service.call('map/update', key, { map_id: id, short_name: 'taken-2' })).short_name).toBe('taken-2');
  });

  it('refuses select, unknown basemaps and wrong types, changing nothing', async () => {
    const id = await newMap();
    const before = await service.call('map/get', key, { map_id: id });
    for (const args of [{ visibility: 'select' }, { basemap: 'nope' }, { title: 5 }, { geojson: 'text' }, { collaborate: true }]) {
      const body = await service.call('map/update', key, { map_id: id, ...args });
      expect(body.error_code).toBe('invalid_arguments');
    }
    expect(await service.call('map/get', key, { map_id: id })).toEqual(before);
  });

  it('replaces the whole content with geojson and derives images and markers from it', async () => {
    const id = await newMap();
    const png = (width: number) => sharp({ create: { width, height: 10, channels: 4, background: '#336699' } }).png().toBuffer();
    const img1 = (await service.send('image/upload', key, { file_type: 'png' }, await png(10))).image_id;
    const img2 = (await service.send('image/upload', key, { file_type: 'png' }, await png(12))).image_id;
    const mk1 = (await service.send('marker/upload', key, { file_type: 'png' }, await png(20))).marker_id;
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Sights' }, { id: 2, title: 'Museums', parent: 1 }],
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [2.29, 48.86] },
          properties: { title: 'Louvre', group: 2, marker_id: mk1, image: { id: img1, w: 10, h: 10, tip_color: '#000000', avg_color: '#111111' } },
        },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, properties: { image: { id: img2, w: 1, h: 1 } } },
      ],
    };
    const body = await service.call('map/update', key, { map_id: id, geojson });
    expect(body.error).toBeUndefined();
    const map = await service.call('map/get', key, { map_id: id });
    expect(map.geojson.features).toHaveLength(2);
    expect(map.geojson.groups).toEqual(geojson.groups);
    expect(map.images).toEqual([img1, img2].sort());
    expect(map.markers).toEqual([mk1]);
    // The image given with its size only gets its colours (and its size) from the stored image.
    expect(map.geojson.features[1].properties.image).toEqual({ id: img2, w: 12, h: 10, tip_color: '#336699', avg_color: '#336699' });
    // Replacing again drops what the new content no longer names.
    await service.call('map/update', key, { map_id: id, geojson: featureCollection(1) });
    const replaced = await service.call('map/get', key, { map_id: id });
    expect(replaced.geojson.features).toHaveLength(1);
    expect(replaced.images).toEqual([]);
    expect(replaced.markers).toEqual([]);
  });

  it('replaces the content with a GeoJSON body over 64 kB (read in an argument thread)', async () => {
    const id = await newMap();
    const geojson = featureCollection(2_000);
    expect(JSON.stringify({ map_id: id, geojson }).length).toBeGreaterThan(64 * 1024);
    expect((await service.call('map/update', key, { map_id: id, geojson })).error).toBeUndefined();
    const map = await service.call('map/get', key, { map_id: id });
    expect(map.geojson.features).toHaveLength(2_000);
    expect(service.internalErrors).toEqual([]);
  });

  it('refuses invalid GeoJSON naming the first problem, and keeps the old content', async () => {
    const id = await newMap();
    const before = await service.call('map/get', key, { map_id: id });
    const cases: [unknown, RegExp][] = [
      [{ type: 'FeatureCollection' }, /features/],
      [{ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: ['a', 1] }, properties: {} }] }, /not a number/],
      [{ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, properties: {} }] }, /not closed/],
      [{ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { group: 'nope' } }] }, /group/],
      [{ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { title: 'a\u0000b' } }] }, /NUL|U\+0000/],
    ];
    for (const [geojson, message] of cases) {
      const body = await service.call('map/update', key, { map_id: id, geojson });
      expect(body.error_code).toBe('invalid_geojson');
      expect(body.error).toMatch(message);
    }
    expect(await service.call('map/get', key, { map_id: id })).toEqual(before);
  });

  it('gives 20 maps renamed at once to the same short name 20 different short names, none failing', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => newMap(`Rename ${i}`)));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(ids.map((map_id) => service.call('map/update', key, { map_id, short_name: `same ${round}` })));
      expect(answers.filter((answer) => answer.error !== undefined)).toEqual([]);
      const names = answers.map((answer) => answer.short_name as string);
      expect(new Set(names).size).toBe(20);
      expect(names).toContain(`same-${round}`);
    }
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
