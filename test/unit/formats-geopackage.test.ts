// GeoPackages made by ogr2ogr from GeoJSON sources (test/support/gisFiles.ts): layers in several
// coordinate systems, each a group, compared with the source position by position; bad files.
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { parseGeoPackage } from '../../lib/formats/geopackage.js';
import { guessFormat } from '../../lib/formats/guessFormat.js';
import { byName, expectSamePositions, LINES, ogr2ogr, ogrFile, POINTS, POLYGONS, tempFolder, readerOf } from '../support/gisFiles.js';

const { parse, failure } = readerOf(parseGeoPackage);
const ALL = [...POINTS, ...LINES, ...POLYGONS];

/** A GeoPackage with one layer per entry, each in its own EPSG system. */
function layeredGeoPackage(layers: [string, number, typeof ALL][]): Uint8Array {
  const { dir, done } = tempFolder();
  try {
    layers.forEach(([name, srs, features], index) => {
      ogr2ogr(dir, 'GPKG', 'out.gpkg', { [name]: features }, srs, index === 0 ? [] : ['-update']);
    });
    return new Uint8Array(fs.readFileSync(path.join(dir, 'out.gpkg')));
  } finally {
    done();
  }
}

describe('GeoPackages made by ogr2ogr', () => {
  for (const srs of [4326, 3067, 3857]) {
    it(`reads a layer of mixed geometries in EPSG:${srs} at the source's positions`, async () => {
      const result = await parse(ogrFile('GPKG', 'gpkg', { places: ALL }, srs, ['-nlt', 'GEOMETRY']));
      expectSamePositions(byName(result.document.features), byName(ALL));
      expect(result.document.groups).toEqual([]);
      expect(result.name).toBe('places');
      expect(result.skipped).toEqual([]);
    });
  }

  it('imports every layer of a multi-layer GeoPackage as its own group, each from its own system', async () => {
    const result = await parse(
      layeredGeoPackage([
        ['points', 3067, POINTS],
        ['lines', 4326, LINES],
        ['polygons', 3857, POLYGONS],
      ]),
    );
    expect(result.document.groups).toEqual([
      { id: 1, title: 'points' },
      { id: 2, title: 'lines' },
      { id: 3, title: 'polygons' },
    ]);
    const features = result.document.features;
    expectSamePositions(features.filter((f) => f.properties.group === 1), POINTS);
    expectSamePositions(features.filter((f) => f.properties.group === 2), LINES);
    expectSamePositions(features.filter((f) => f.properties.group === 3), POLYGONS);
    expect(features[1]!.properties).toEqual({ name: 'Turku – Åbo', kind: 'city', pop: 201863, area: 245.67, since: '1229-01-01', group: 1 });
  });

  it('is recognised by its content', async () => {
    expect(await guessFormat(ogrFile('GPKG', 'gpkg', { points: POINTS }, 4326))).toBe('geopackage');
  });
});

describe('bad GeoPackages', () => {
  it('refuses a file that is not SQLite', async () => {
    const error = await failure(new TextEncoder().encode('name,lat,lon\nA,1,2\n'));
    expect(error.code).toBe('invalid_file');
    expect(error.message).toMatch(/not an SQLite database/);
  });

  it('refuses an SQLite database that is no GeoPackage', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE places (name TEXT, lat REAL, lon REAL)');
    const error = await failure(db.export());
    db.close();
    expect(error.code).toBe('invalid_file');
    expect(error.message).toMatch(/not a GeoPackage/);
  });

  it('refuses a truncated GeoPackage', async () => {
    const bytes = ogrFile('GPKG', 'gpkg', { places: ALL }, 3067, ['-nlt', 'GEOMETRY']);
    const error = await failure(bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(error.code).toBe('invalid_file');
  });

  it('refuses a coordinate system it cannot convert, naming it', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database(ogrFile('GPKG', 'gpkg', { points: POINTS }, 3067));
    db.run("UPDATE gpkg_spatial_ref_sys SET organization = 'NONE', definition = 'PROJCS[\"Lunar grid\",GEOGCS[\"Moon\",DATUM[\"D_Moon\",SPHEROID[\"Moon\",1737400,0]]],PROJECTION[\"No_Such_Projection\"]]' WHERE srs_id = 3067");
    const error = await failure(db.export());
    db.close();
    expect(error.code).toBe('unknown_crs');
    expect(error.message).toContain('Lunar grid');
  });

  it('reads stored data only: no generated column, no view listed as a feature table', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database(ogrFile('GPKG', 'gpkg', { points: POINTS }, 4326, ['-lco', 'SPATIAL_INDEX=NO']));
    db.run("ALTER TABLE points ADD COLUMN big BLOB AS (zeroblob(100000000)) VIRTUAL");
    db.run('CREATE VIEW endless AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i AS fid, NULL AS geom FROM n');
    db.run("INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES ('endless', 'features', 'endless', 4326)");
    db.run("INSERT INTO gpkg_geometry_columns (table_name, column_name, geometry_type_name, srs_id, z, m) VALUES ('endless', 'geom', 'POINT', 4326, 0, 0)");
    const result = await parse(db.export());
    db.close();
    expect(result.document.groups).toEqual([]);
    expect(result.document.features.map((f) => Object.keys(f.properties))).toEqual(Array(3).fill(['name', 'kind', 'pop', 'area', 'since']));
    // The view is named in the report, not passed over in silence.
    expect(result.skipped).toEqual([{ reason: 'layer "endless": a view (a query the file defines), which is not imported; only stored tables are' }]);
  });

  it('skips a row whose geometry blob is damaged, with its record number', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database(ogrFile('GPKG', 'gpkg', { points: POINTS }, 4326, ['-lco', 'SPATIAL_INDEX=NO']));
    db.run("UPDATE points SET geom = X'47500001E610000001010000' WHERE fid = 2");
    const result = await parse(db.export());
    db.close();
    expect(result.document.features.map((f) => f.properties.name)).toEqual(['Helsinki', 'Oulu (Uleåborg) €']);
    expect(result.skipped).toEqual([{ reason: 'record 2: the geometry blob is truncated' }]);
  });
});
