// Shapefile (zipped), FlatGeobuf and GeoPackage through map/upload and map/append: files made by
// ogr2ogr in the test (test/support/gisFiles.ts), read back at the source's positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { byName, expectSamePositions, LINES, ogr2ogr, ogrFile, POINTS, POLYGONS, tempFolder, zippedShapefile } from '../support/gisFiles.js';
import { startTestService, type TestService } from './harness.js';
import type { MapFeature } from '../../lib/geojson/model.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

const upload = (fileType: string, body: Uint8Array) => service.send('map/upload', key, { file_type: fileType, visibility: 'private' }, body);
const getMap = (id: number) => service.call('map/get', key, { map_id: id });

describe('GIS imports', () => {
  it('uploads a zipped shapefile in EPSG:3067, one group per layer, at the source positions', async () => {
    const answer = await upload('shapefile', zippedShapefile({ lines: LINES, points: POINTS, polygons: POLYGONS }, 3067, ['-lco', 'ENCODING=UTF-8']));
    expect(answer.error).toBeUndefined();
    expect(answer.import).toEqual({ features: 7, skipped: [] });
    const { geojson } = await getMap(answer.id);
    const groups = geojson.groups as { id: number; title: string }[];
    expect(groups.map((g) => g.title)).toEqual(['lines', 'points', 'polygons']);
    const features = geojson.features as MapFeature[];
    const inGroup = (title: string) => features.filter((f) => f.properties.group === groups.find((g) => g.title === title)!.id);
    expectSamePositions(inGroup('points'), POINTS);
    expectSamePositions(inGroup('lines'), LINES);
    expectSamePositions(inGroup('polygons'), POLYGONS);
    expect(inGroup('points')[1]!.properties.name).toBe('Turku – Åbo');
  });

  it('appends a multi-layer shapefile into new_group, its layers kept as subgroups', async () => {
    const empty = await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' });
    const answer = await service.send('map/append', key, { map_id: empty.id, file_type: 'shapefile', new_group: 'Survey' }, zippedShapefile({ lines: LINES, points: POINTS }, 3067));
    expect(answer.error).toBeUndefined();
    const { geojson } = await getMap(empty.id);
    const groups = geojson.groups as { id: number; title: string; parent?: number }[];
    const root = groups.find((g) => g.title === 'Survey')!;
    expect(groups.filter((g) => g.parent === root.id).map((g) => g.title)).toEqual(['lines', 'points']);
    expect((geojson.features as MapFeature[]).every((f) => groups.some((g) => g.id === f.properties.group && g.parent === root.id))).toBe(true);
  });

  it('uploads a FlatGeobuf file in EPSG:3857 at the source positions', async () => {
    const all = [...POINTS, ...LINES, ...POLYGONS];
    const answer = await upload('flatgeobuf', ogrFile('FlatGeobuf', 'fgb', { places: all }, 3857));
    expect(answer.error).toBeUndefined();
    expect(answer.import).toEqual({ features: 7, skipped: [] });
    expectSamePositions(byName((await getMap(answer.id)).geojson.features as MapFeature[]), byName(all));
  });

  it('uploads a GeoPackage of two layers in different systems as two groups; refuses one that is not SQLite', async () => {
    const { dir, done } = tempFolder();
    let bytes: Uint8Array;
    try {
      ogr2ogr(dir, 'GPKG', 'out.gpkg', { points: POINTS }, 3067);
      bytes = new Uint8Array(fs.readFileSync(ogr2ogr(dir, 'GPKG', 'out.gpkg', { polygons: POLYGONS }, 4326, ['-update'])));
    } finally {
      done();
    }
    const answer = await upload('geopackage', bytes);
    expect(answer.error).toBeUndefined();
    expect(answer.import).toEqual({ features: 5, skipped: [] });
    const { geojson } = await getMap(answer.id);
    const groups = geojson.groups as { id: number; title: string }[];
    expect(groups.map((g) => g.title)).toEqual(['points', 'polygons']);
    const features = geojson.features as MapFeature[];
    expectSamePositions(features.filter((f) => f.properties.group === groups[0]!.id), POINTS);
    expectSamePositions(features.filter((f) => f.properties.group === groups[1]!.id), POLYGONS);
    const bad = await upload('geopackage', new TextEncoder().encode('not a database'));
    expect(bad.error_code).toBe('invalid_file');
  });

  it('refuses a zip without a .shp and leaves no map behind', async () => {
    const before = (await service.call('map/list', key)).owner.length as number;
    const { makeZip } = await import('../support/zipWriter.js');
    const answer = await upload('shapefile', makeZip([{ name: 'readme.txt', data: 'no shapes here' }]));
    expect(answer.error_code).toBe('no_shp_in_archive');
    expect((await service.call('map/list', key)).owner.length).toBe(before);
  });
});
