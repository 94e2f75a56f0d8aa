import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, featureCollection, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

const newMap = async (features = 2) =>
  (await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private' }, JSON.stringify(featureCollection(features)))).id as number;
const getMap = (id: number) => service.call('map/get', key, { map_id: id });

describe('map/append', () => {
  it('appends features with fresh unique ids and answers the spec fields and the import summary', async () => {
    const id = await newMap(2);
    const body = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(3, 100)));
    expect(body).toMatchObject({ id, visibility: 'private', import: { features: 3, skipped: [] } });
    const map = await getMap(id);
    expect(map.geojson.features).toHaveLength(5);
    const ids = map.geojson.features.map((f: { id: number }) => f.id);
    expect(new Set(ids).size).toBe(5);
    expect(map.geojson.features.map((f: { properties: { title: string } }) => f.properties.title)).toContain('Point 102');
  });

  it('puts every appended item directly into new_group', async () => {
    const id = await newMap(1);
    const incoming = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Source group' }],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { group: 1 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2, 2] }, properties: {} },
      ],
    };
    await service.send('map/append', key, { map_id: id, file_type: 'geojson', new_group: 'Imported' }, JSON.stringify(incoming));
    const map = await getMap(id);
    const group = map.geojson.groups.find((g: { title: string }) => g.title === 'Imported');
    expect(group).toBeDefined();
    expect(map.geojson.groups.map((g: { title: string }) => g.title)).not.toContain('Source group');
    const appended = map.geojson.features.slice(1);
    expect(appended.map((f: { properties: { group: unknown } }) => f.properties.group)).toEqual([group.id, group.id]);
  });

  it('keeps incoming groups (remapping colliding ids) without new_group', async () => {
    const id = await newMap(0);
    const withGroup = (title: string) => ({
      type: 'FeatureCollection',
      groups: [{ id: 1, title }],
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { group: 1 } }],
    });
    await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(withGroup('First')));
    await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(withGroup('Second')));
    const map = await getMap(id);
    expect(map.geojson.groups.map((g: { title: string }) => g.title)).toEqual(['First', 'Second']);
    const [first, second] = map.geojson.groups;
    expect(map.geojson.features.map((f: { properties: { group: unknown } }) => f.properties.group)).toEqual([first.id, second.id]);
  });

  it("numbers appended features after the map's largest id and keeps the map's other top-level keys", async () => {
    const id = await newMap(0);
    const current = {
      type: 'FeatureCollection',
      export: { by: 'map' },
      features: [{ type: 'Feature', id: 1000, geometry: { type: 'Point', coordinates: [1, 1] }, properties: { title: 'Old' } }],
    };
    await service.call('map/update', key, { map_id: id, geojson: current });
    const incoming = { ...featureCollection(2), export: { by: 'file' }, source: 'tool' };
    // A "__proto__" key in the file stays data and pollutes nothing.
    const text = JSON.stringify(incoming).replace('"source"', '"__proto__":{"polluted":true},"source"');
    await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, text);
    const { geojson } = await getMap(id);
    expect(geojson.features.map((f: { id: number }) => f.id)).toEqual([1000, 1001, 1002]);
    expect(geojson.export).toEqual({ by: 'map' });
    expect(geojson.source).toBe('tool');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('loses no feature when 20 appends run at once', async () => {
    const id = await newMap(0);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(5, n * 1000))),
      ),
    );
    expect(results.filter((r) => r.error)).toEqual([]);
    const map = await getMap(id);
    expect(map.geojson.features).toHaveLength(100);
    const titles = new Set(map.geojson.features.map((f: { properties: { title: string } }) => f.properties.title));
    for (let n = 0; n < 20; n += 1) for (let i = 0; i < 5; i += 1) expect(titles.has(`Point ${n * 1000 + i}`)).toBe(true);
    expect(new Set(map.geojson.features.map((f: { id: number }) => f.id)).size).toBe(100);
  });

  it('loses nothing and keeps each client\'s order when 20 clients append 50 times each', async () => {
    const id = await newMap(0);
    await Promise.all(
      Array.from({ length: 20 }, async (_, client) => {
        for (let n = 0; n < 50; n++) {
          const body = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(1, client * 1000 + n)));
          expect(body.error).toBeUndefined();
        }
      }),
    );
    const map = await getMap(id);
    const features = map.geojson.features as { id: number; properties: { title: string } }[];
    expect(features).toHaveLength(1000);
    expect(new Set(features.map((f) => f.id)).size).toBe(1000);
    // Features come back in the order of the writes: each client's in the order it sent them, ids rising.
    for (let client = 0; client < 20; client++) {
      const mine = features.filter((f) => Math.floor(Number(f.properties.title.slice('Point '.length)) / 1000) === client);
      expect(mine.map((f) => f.properties.title)).toEqual(Array.from({ length: 50 }, (_, n) => `Point ${client * 1000 + n}`));
    }
    expect(features.map((f) => f.id)).toEqual([...features.map((f) => f.id)].sort((a, b) => a - b));
    const stored = await service.db('maps').where({ id }).first('content_bytes', 'feature_count', 'revision');
    expect(Number(stored.content_bytes)).toBe(Buffer.byteLength(JSON.stringify(map.geojson)));
    expect([Number(stored.feature_count), Number(stored.revision)]).toEqual([1000, 1001]);
  }, 300_000);

  it('leaves the map exactly as before when the file fails after rows went into the database', async () => {
    const id = await newMap(2);
    const state = () => service.db('maps').where({ id }).first('revision', 'feature_count', 'features_bytes', 'next_feature_id', 'head');
    const rowCount = async () => Number((await service.db('map_features').where({ map_id: id }).count({ n: '*' }).first())!.n);
    const before = { map: await state(), rows: await rowCount() };
    // 20,000 good rows (about 600 kB: many of the parser's writes have gone into the COPY), then a quote never closed.
    const good = Array.from({ length: 20_000 }, (_, i) => `${(i % 80) - 40},${(i % 170) - 85},Row ${i}`).join('\n');
    const answer = await service.send('map/append', key, { map_id: id, file_type: 'csv' }, `lat,lon,title\n${good}\n1,2,"never closed\n3,4,x\n`);
    expect(answer.error_code).toBe('csv_parse_error');
    expect({ map: await state(), rows: await rowCount() }).toEqual(before);
    // The ids reserved for the failed file were given back: the next append numbers on from the map's.
    const next = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(2, 100)));
    expect(next.import.features).toBe(2);
    const ids = (await getMap(id)).geojson.features.map((f: { id: number }) => f.id);
    expect(ids).toEqual([1, 2, 3, 4]);
  });

  it('applies a retried Idempotency-Key once', async () => {
    const id = await newMap(1);
    const file = JSON.stringify(featureCollection(2, 50));
    const first = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, file, { 'idempotency-key': 'append-1' });
    const again = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, file, { 'idempotency-key': 'append-1' });
    expect(again).toEqual(first);
    expect((await getMap(id)).geojson.features).toHaveLength(3);
  });

  it('refuses invalid GeoJSON and leaves the map unchanged', async () => {
    const id = await newMap(2);
    const before = await getMap(id);
    const bad = featureCollection(2);
    (bad.features[1]!.geometry as { type: string }).type = 'Circle';
    const body = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(bad));
    expect(body.error_code).toBe('invalid_geojson');
    expect(body.error).toMatch(/Circle/);
    expect(await getMap(id)).toEqual(before);
  });

  it('validates its arguments', async () => {
    const id = await newMap(0);
    const file = JSON.stringify(featureCollection(1));
    expect((await service.send('map/append', key, { file_type: 'geojson' }, file)).error).toMatch(/"map_id" is required/);
    expect((await service.send('map/append', key, { map_id: id }, file)).error).toMatch(/"file_type" is required/);
    expect((await service.send('map/append', key, { map_id: id, file_type: 'empty' }, file)).error_code).toBe('invalid_arguments');
    expect((await service.send('map/append', key, { map_id: id, file_type: 'geojson', new_group: '  ' }, file)).error_code).toBe('invalid_arguments');
    expect((await service.send('map/append', key, { map_id: 99999999, file_type: 'geojson' }, file)).error_code).toBe('map_not_found');
    expect((await service.send('map/append', key, { map_id: id, file_type: 'geojson' })).error_code).toBe('missing_file');
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
