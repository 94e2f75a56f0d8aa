// FlatGeobuf files made by ogr2ogr from GeoJSON sources (test/support/gisFiles.ts), in WGS 84 and
// projected systems, compared with the source position by position; damaged files.
import { describe, expect, it } from 'vitest';
import { parseFlatGeobuf } from '../../lib/formats/flatgeobuf.js';
import { guessFormat } from '../../lib/formats/guessFormat.js';
import { byName, expectSamePositions, LINES, ogrFile, POINTS, POLYGONS, readerOf } from '../support/gisFiles.js';

const { parse, failure } = readerOf(parseFlatGeobuf);
const ALL = [...POINTS, ...LINES, ...POLYGONS];

describe('FlatGeobuf files made by ogr2ogr', () => {
  for (const srs of [4326, 3067, 3857]) {
    for (const index of ['YES', 'NO']) {
      it(`reads points, lines and polygons of EPSG:${srs} (spatial index ${index}) at the source's positions`, async () => {
        const result = await parse(ogrFile('FlatGeobuf', 'fgb', { places: ALL }, srs, ['-lco', `SPATIAL_INDEX=${index}`]));
        expectSamePositions(byName(result.document.features), byName(ALL));
        expect(result.skipped).toEqual([]);
      });
    }
  }

  it('keeps the attributes', async () => {
    const result = await parse(ogrFile('FlatGeobuf', 'fgb', { points: POINTS }, 3067, ['-lco', 'SPATIAL_INDEX=NO']));
    expect(result.document.features[1]!.properties).toMatchObject({ name: 'Turku – Åbo', kind: 'city', pop: 201863, area: 245.67 });
  });

  it('is recognised by its content', async () => {
    expect(await guessFormat(ogrFile('FlatGeobuf', 'fgb', { points: POINTS }, 4326))).toBe('flatgeobuf');
  });
});

describe('bad FlatGeobuf files', () => {
  const good = () => ogrFile('FlatGeobuf', 'fgb', { places: ALL }, 3067, ['-lco', 'SPATIAL_INDEX=NO']);

  it('refuses a truncated file, at any cut', async () => {
    const bytes = good();
    for (const cut of [5, 40, Math.floor(bytes.length / 2), bytes.length - 3]) {
      const error = await failure(bytes.subarray(0, cut));
      expect(error.code).toBe('invalid_file');
      expect(error.message).toMatch(/truncated/);
    }
  });

  it('refuses a file whose header lies about its feature count', async () => {
    const indexed = ogrFile('FlatGeobuf', 'fgb', { places: ALL }, 3067, ['-lco', 'SPATIAL_INDEX=NO']);
    const { ByteBuffer } = await import('flatbuffers');
    const { fromByteBuffer } = await import('flatgeobuf/lib/mjs/header-meta.js');
    const buffer = new ByteBuffer(indexed);
    buffer.setPosition(8);
    expect(fromByteBuffer(buffer).featuresCount).toBe(ALL.length);
    // Appending a copy of the last feature makes the file hold one more than it says.
    const view = new DataView(indexed.buffer, indexed.byteOffset, indexed.byteLength);
    let offset = 12 + view.getUint32(8, true);
    let last = offset;
    while (offset < indexed.length) {
      last = offset;
      offset += 4 + view.getUint32(offset, true);
    }
    const longer = new Uint8Array(indexed.length + (indexed.length - last));
    longer.set(indexed);
    longer.set(indexed.subarray(last), indexed.length);
    const error = await failure(longer);
    expect(error.code).toBe('invalid_file');
    expect(error.message).toMatch(/says it holds 7 features, the file holds 8/);
  });

  it('refuses a file that is not FlatGeobuf', async () => {
    expect((await failure(new TextEncoder().encode('{"type":"FeatureCollection"}'))).code).toBe('unsupported_type');
  });
});
