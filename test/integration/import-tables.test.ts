// Table imports through the API: map/append with csv and excel, new_group as the import root,
// service image URLs resolved to stored images, bad files refused without changing the map.
import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';
import { storeImage } from '../../activities/mediaStore.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
let userId: number;
beforeAll(async () => {
  service = await startTestService();
  ({ key, userId } = await service.newUser());
});
afterAll(() => service.stop());

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const emptyMap = async () => (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' })).id as number;
const getMap = (id: number) => service.call('map/get', key, { map_id: id });
type Group = { id: number; title: string; parent?: number };

describe('table imports', () => {
  it('appends a CSV with subgroups under new_group as the import root', async () => {
    const id = await emptyMap();
    const answer = await service.send('map/append', key, { map_id: id, file_type: 'csv', new_group: 'Trip' }, fixture('csv/utf8-bom.csv'));
    expect(answer.import).toEqual({ features: 3, skipped: [] });
    const { geojson } = await getMap(id);
    const groups = geojson.groups as Group[];
    const byTitle = (title: string) => groups.find((g) => g.title === title)!;
    expect(byTitle('Trip').parent).toBeUndefined();
    expect(byTitle('Europe').parent).toBe(byTitle('Trip').id);
    expect(byTitle('France').parent).toBe(byTitle('Europe').id);
    expect(byTitle('Asia').parent).toBe(byTitle('Trip').id);
    const cafe = geojson.features.find((f: { properties: { title: string } }) => f.properties.title === 'Café de Flore');
    expect(cafe.geometry.coordinates).toEqual([2.3488, 48.8534]);
    expect(cafe.properties.group).toBe(byTitle('France').id);
  });

  it('reads Windows-1252 CSV with semicolons and decimal commas, and hidden rows', async () => {
    const id = await emptyMap();
    await service.send('map/append', key, { map_id: id, file_type: 'csv' }, fixture('csv/windows-1252-semicolon.csv'));
    const { geojson } = await getMap(id);
    const props = geojson.features.map((f: { properties: Record<string, unknown> }) => f.properties);
    expect(props.map((p: { title: unknown }) => p.title)).toEqual(['Tour Eiffel', 'Marseille', 'Lyon']);
    expect(props[0].description).toBe('Monument célèbre');
    expect(props[1].visible).toBe(false);
    expect(geojson.features[0].geometry.coordinates).toEqual([2.3522, 48.8566]);
  });

  it('appends XLSX, XLS and ODS files sent as excel', async () => {
    for (const name of ['xlsx/places.xlsx', 'xls/places.xls', 'ods/places.ods']) {
      const id = await emptyMap();
      const answer = await service.send('map/append', key, { map_id: id, file_type: 'excel' }, fixture(name));
      expect(answer.error).toBeUndefined();
      expect(answer.import.features).toBeGreaterThan(0);
      const { geojson } = await getMap(id);
      expect(geojson.features).toHaveLength(answer.import.features);
    }
  });

  it('links service_image_url values to stored images and reports the rest', async () => {
    const blobs = new LocalBlobStore(service.blobDir);
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#336699' } }).png().toBuffer();
    const image = await storeImage(service.db, blobs, userId, png);
    const csv = [
      'lat,lon,title,service_image_url',
      `1,2,Ours,${service.url}/images/${image.id}/s256`,
      `3,4,Unknown,${service.url}/images/nosuchimage00000`,
      '5,6,Elsewhere,http://169.254.169.254/images/abc',
    ].join('\n');
    const id = await emptyMap();
    const answer = await service.send('map/append', key, { map_id: id, file_type: 'csv' }, csv);
    expect(answer.import.features).toBe(3);
    const { geojson, images } = await getMap(id);
    expect(geojson.features[0].properties.image).toEqual({ id: image.id, w: 40, h: 20, tip_color: '#336699', avg_color: '#336699' });
    expect(geojson.features[1].properties.image).toBeUndefined();
    expect(geojson.features[2].properties.image).toBeUndefined();
    expect(images).toEqual([image.id]);
    expect(answer.import.skipped.map((s: { reason: string }) => s.reason).join('\n')).toMatch(/"Unknown".*not an image of this service/);
  });

  it('reports rows without valid coordinates with their row numbers', async () => {
    const id = await emptyMap();
    const csv = 'lat,lon,title\n1,2,Good\nabc,2,Bad latitude\n95,2,Out of range\n,,Empty\n3,4,Good too\n';
    const answer = await service.send('map/append', key, { map_id: id, file_type: 'csv' }, csv);
    expect(answer.import.features).toBe(2);
    expect(answer.import.skipped.map((s: { line: number }) => s.line)).toEqual([3, 4, 5]);
  });

  it('refuses broken tables with a clear error and leaves the map unchanged', async () => {
    const id = await emptyMap();
    const before = await getMap(id);
    const cases: [string, string | Buffer, string][] = [
      ['csv', 'name,description\nx,y\n', 'missing_coordinate_columns'],
      ['csv', 'lat,lon,title\n1,2,"never closed\n3,4,x\n', 'csv_parse_error'],
      ['excel', fixture('kml/google-earth.kml'), 'unsupported_type'],
      ['excel', Buffer.from('PK\u0003\u0004 truncated'), 'invalid_spreadsheet'],
    ];
    for (const [fileType, body, code] of cases) {
      const answer = await service.send('map/append', key, { map_id: id, file_type: fileType }, body);
      expect(answer.error_code).toBe(code);
    }
    expect(await getMap(id)).toEqual(before);
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
