import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operation as mapAppend } from '../../api/routes/map/append.js';
import { operation as mapGet } from '../../api/routes/map/get.js';
import { operation as mapUpdate } from '../../api/routes/map/update.js';
import { operation as mapUpload } from '../../api/routes/map/upload.js';
import { describeZodError } from '../../api/schemas.js';
import { parseRowLine } from '../../lib/formats/featureRows.js';
import type { DocumentContent } from '../../lib/formats/documentContent.js';

const mapAppendArgs = mapAppend.args;
const mapGetArgs = mapGet.args;
const mapUpdateArgs = mapUpdate.args;
const mapUploadArgs = mapUpload.args;

const problem = (schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } }, input: unknown) => {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return describeZodError(result.error as never, input);
};

describe('argument schemas', () => {
  it('accept map ids as numbers or digit strings', () => {
    expect(mapGetArgs.parse({ map_id: 5 })).toEqual({ map_id: 5 });
    expect(mapGetArgs.parse({ map_id: '42' })).toEqual({ map_id: 42 });
    for (const bad of [0, -3, 1.5, '007', 'x', null, true]) expect(mapGetArgs.safeParse({ map_id: bad }).success).toBe(false);
  });

  it("say in the map id's pattern (the OpenAPI document's) which digit strings are map ids: up to 9007199254740991", () => {
    const pattern = new RegExp((z.toJSONSchema(mapGetArgs, { io: 'input' }) as unknown as { properties: { map_id: { anyOf: { pattern?: string }[] } } }).properties.map_id.anyOf[1]!.pattern!);
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    const samples = ['1', '9', '10', '900719925474099', '9007199254740991', '9007199254740992', '9007199254740999', '9499443934707269', '8999999999999999', '9007199254739999', '9007199254740990', '9007199254740100', '10000000000000000', '0', '01'];
    for (let digits = 1; digits <= 17; digits++) for (let i = 0; i < 200; i++) samples.push(String(BigInt(10) ** BigInt(digits - 1) + BigInt(Math.floor(Math.random() * 9 * 10 ** (digits - 1)))));
    for (const sample of samples) {
      const isId = /^[1-9]\d*$/.test(sample) && BigInt(sample) <= max;
      expect([sample, pattern.test(sample)]).toEqual([sample, isId]);
      expect([sample, mapGetArgs.safeParse({ map_id: sample }).success]).toEqual([sample, isId]);
    }
  });

  it('name a missing required argument', () => {
    expect(problem(mapGetArgs, {})).toBe('"map_id" is required');
    expect(problem(mapUploadArgs, { file_type: 'empty' })).toBe('"visibility" is required');
  });

  it('list the allowed values of an enum', () => {
    expect(problem(mapUploadArgs, { file_type: 'empty', visibility: 'select' })).toBe(
      '"visibility" must be one of public, unlisted, private',
    );
    expect(problem(mapAppendArgs, { map_id: 1, file_type: 'empty' })).toBe(
      '"file_type" must be one of kml, gpx, geojson, csv, excel, shapefile, flatgeobuf, geopackage',
    );
  });

  it('name unknown arguments', () => {
    expect(problem(mapUpdateArgs, { map_id: 1, owner: 'eve', collaborate: true })).toBe('unknown argument "owner", "collaborate"');
  });

  it('describe wrong types with the argument name', () => {
    expect(problem(mapUpdateArgs, { map_id: 1, title: 5 })).toMatch(/^"title": .*string/);
  });

  it('accept every upload file type of the spec and every append file type, and the GIS types in both', () => {
    for (const fileType of ['empty', 'kml', 'gpx', 'geojson', 'shapefile', 'flatgeobuf', 'geopackage']) {
      expect(mapUploadArgs.safeParse({ file_type: fileType, visibility: 'public' }).success).toBe(true);
    }
    for (const fileType of ['kml', 'gpx', 'geojson', 'csv', 'excel', 'shapefile', 'flatgeobuf', 'geopackage']) {
      expect(mapAppendArgs.safeParse({ map_id: 1, file_type: fileType }).success).toBe(true);
    }
  });
});

describe('the geojson argument of map/update', () => {
  it('is checked by the document model and refused with map_too_large over 64 MB of GeoJSON', async () => {
    const feature = (i: number) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: long, n: i } });
    const long = 'x'.repeat(100_000);
    const small = mapUpdateArgs.parse({ map_id: 1, geojson: { type: 'FeatureCollection', features: [feature(1)] } }) as { geojson: DocumentContent };
    // Plain data, so it can come back from an argument thread.
    expect(structuredClone(small.geojson)).toEqual(small.geojson);
    const [line] = small.geojson.rows;
    const row = parseRowLine(line!.slice(0, -1));
    expect(small.geojson.featureBytes).toBe(Buffer.byteLength(row.text));
    expect(JSON.parse(row.text).id).toBe(1);
    expect(JSON.parse(small.geojson.head)).toEqual({ type: 'FeatureCollection', groups: [] });
    expect(small.geojson.nextFeatureId).toBe(2);
    const huge = { type: 'FeatureCollection', features: Array.from({ length: 680 }, (_, i) => feature(i)) };
    expect(() => mapUpdateArgs.parse({ map_id: 1, geojson: huge })).toThrow(expect.objectContaining({ code: 'map_too_large' }));
    expect(() => mapUpdateArgs.parse({ map_id: 1, geojson: { type: 'FeatureCollection' } })).toThrow(expect.objectContaining({ code: 'invalid_geojson' }));
  });
});
