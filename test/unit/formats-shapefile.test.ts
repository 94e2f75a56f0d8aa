// Zipped shapefiles made by ogr2ogr from GeoJSON sources (test/support/gisFiles.ts), in WGS 84
// and projected systems, compared with the source position by position; damaged and hostile files.
import { describe, expect, it } from 'vitest';
import { parseShapefile } from '../../lib/formats/shapefile.js';
import { guessFormat } from '../../lib/formats/guessFormat.js';
import { expectSamePositions, LINES, POINTS, POLYGONS, zippedShapefile, readerOf } from '../support/gisFiles.js';
import { makeZip, zeroBomb } from '../support/zipWriter.js';
import { unzipSync } from '../support/unzip.js';

const { parse, failure } = readerOf(parseShapefile);
const layers = { lines: LINES, points: POINTS, polygons: POLYGONS };

describe('zipped shapefiles made by ogr2ogr', () => {
  for (const srs of [4326, 3067, 3857]) {
    it(`reads every layer of EPSG:${srs} back at the source's positions, one group per layer`, async () => {
      const result = await parse(zippedShapefile(layers, srs, ['-lco', 'ENCODING=UTF-8']));
      expect(result.document.groups).toEqual([
        { id: 1, title: 'lines' },
        { id: 2, title: 'points' },
        { id: 3, title: 'polygons' },
      ]);
      const features = result.document.features;
      expectSamePositions(features.filter((f) => f.properties.group === 1), LINES);
      expectSamePositions(features.filter((f) => f.properties.group === 2), POINTS);
      expectSamePositions(features.filter((f) => f.properties.group === 3), POLYGONS);
      expect(result.skipped).toEqual([]);
    });
  }

  it('keeps the attributes with their types, in the .cpg encoding (UTF-8)', async () => {
    const result = await parse(zippedShapefile({ points: POINTS }, 3067, ['-lco', 'ENCODING=UTF-8']));
    expect(result.document.features.map((f) => f.properties)).toEqual([
      { name: 'Helsinki', kind: 'city', pop: 664028, area: 214.25, since: '1550-06-12' },
      { name: 'Turku – Åbo', kind: 'city', pop: 201863, area: 245.67, since: '1229-01-01' },
      { name: 'Oulu (Uleåborg) €', kind: 'town', pop: 214633, area: 3049.4, since: '1605-04-08' },
    ]);
    expect(result.name).toBe('points');
  });

  it('reads Latin-1 attributes by the .cpg, and by the .dbf when there is no .cpg', async () => {
    const latin = POINTS.map((f) => ({ ...f, properties: { name: String(f.properties.name).replace(/[–€]/g, '-') } }));
    for (const leave of [[], ['.cpg']]) {
      const result = await parse(zippedShapefile({ points: latin }, 4326, ['-lco', 'ENCODING=ISO-8859-1'], leave));
      expect(result.document.features.map((f) => f.properties.name)).toEqual(['Helsinki', 'Turku - Åbo', 'Oulu (Uleåborg) -']);
    }
  });

  it('reads a shapefile without a .prj when its coordinates are longitude/latitude, refuses one that is projected', async () => {
    expectSamePositions((await parse(zippedShapefile({ points: POINTS }, 4326, [], ['.prj']))).document.features, POINTS);
    const error = await failure(zippedShapefile({ points: POINTS }, 3067, [], ['.prj']));
    expect(error.code).toBe('unknown_crs');
    expect(error.message).toMatch(/no \.prj file/);
  });

  it('refuses a coordinate system it cannot convert, naming it', async () => {
    const files = unzipSync(zippedShapefile({ points: POINTS }, 4326));
    files['points.prj'] = new TextEncoder().encode('PROJCS["Moon_Polar_Thing",GEOGCS["GCS_Moon",DATUM["D_Moon",SPHEROID["Moon",1737400,0]]],PROJECTION["No_Such_Projection"],UNIT["Meter",1]]');
    const error = await failure(makeZip(Object.entries(files).map(([name, data]) => ({ name, data }))));
    expect(error.code).toBe('unknown_crs');
    expect(error.message).toContain('Moon_Polar_Thing');
  });

  it('is recognised by its content: a zip holding a .shp', async () => {
    expect(await guessFormat(zippedShapefile({ points: POINTS }, 4326))).toBe('shapefile');
  });
});

describe('bad shapefiles', () => {
  const files = () => unzipSync(zippedShapefile({ points: POINTS }, 3067));
  const zipOf = (entries: Record<string, Uint8Array>) => makeZip(Object.entries(entries).map(([name, data]) => ({ name, data })));

  it('refuses a truncated .shp, naming the record', async () => {
    const entries = files();
    const shp = entries['points.shp'] as Uint8Array;
    entries['points.shp'] = shp.subarray(0, shp.length - 10);
    const error = await failure(zipOf(entries));
    expect(error.code).toBe('invalid_file');
    expect(error.message).toMatch(/truncated/);
  });

  it('refuses a .dbf whose header claims more records than it holds, or another count than the .shp', async () => {
    for (const count of [50, 2]) {
      const entries = files();
      const dbf = (entries['points.dbf'] as Uint8Array).slice();
      new DataView(dbf.buffer).setUint32(4, count, true);
      entries['points.dbf'] = dbf;
      const error = await failure(zipOf(entries));
      expect(error.code).toBe('invalid_file');
      expect(error.message).toMatch(count === 50 ? /header says it holds 50 records, the file holds 3/ : /has 2 records but its \.shp has 3/);
    }
  });

  it('refuses a zip without a .shp, naming what it holds', async () => {
    const entries = files();
    delete entries['points.shp'];
    const error = await failure(zipOf(entries));
    expect(error.code).toBe('no_shp_in_archive');
    expect(error.message).toContain('points.dbf');
  });

  it('refuses a zip bomb in the archive as for KMZ, whether its sizes tell the truth or lie', async () => {
    const entries = files();
    for (const size of [300 * 1024 * 1024, 1000]) {
      const bomb = makeZip([
        { name: 'points.shp', data: entries['points.shp'] },
        { name: 'points.dbf', deflated: zeroBomb(300), size, crc: 0 },
      ]);
      const error = await failure(bomb);
      expect(error.code).toBe('archive_too_large');
      expect(error.message).toMatch(size === 1000 ? /zip bomb/ : /at most 200 MB/);
    }
  });

  it('refuses a file that is not a shapefile', async () => {
    expect((await failure(new TextEncoder().encode('name,lat,lon\n'))).code).toBe('unsupported_type');
  });
});
