// GIS test files made by ogr2ogr (Debian's gdal-bin) from GeoJSON sources written here, in the
// coordinate system asked for, and the comparison of an import with its source position by
// position (ring orientation and the closing position as a shapefile writes them aside).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { AppError } from '../../lib/errors.js';
import type { MapFeature, Position } from '../../lib/geojson/model.js';
import type { FormatParser, ParsedFile } from '../../lib/formats/types.js';
import { makeZip } from './zipWriter.js';

export interface SourceFeature {
  type: 'Feature';
  geometry: { type: string; coordinates: unknown };
  properties: Record<string, unknown>;
}

const feature = (geometry: SourceFeature['geometry'], properties: Record<string, unknown>): SourceFeature => ({ type: 'Feature', geometry, properties });

/** Points with text (non-ASCII too), integer, real and date attributes. */
export const POINTS: SourceFeature[] = [
  feature({ type: 'Point', coordinates: [24.9384, 60.1699] }, { name: 'Helsinki', kind: 'city', pop: 664028, area: 214.25, since: '1550-06-12' }),
  feature({ type: 'Point', coordinates: [22.2666, 60.4518] }, { name: 'Turku – Åbo', kind: 'city', pop: 201863, area: 245.67, since: '1229-01-01' }),
  feature({ type: 'Point', coordinates: [25.4651, 65.0121] }, { name: 'Oulu (Uleåborg) €', kind: 'town', pop: 214633, area: 3049.4, since: '1605-04-08' }),
];

export const LINES: SourceFeature[] = [
  feature({ type: 'LineString', coordinates: [[24.9384, 60.1699], [24.0, 60.5], [22.2666, 60.4518]] }, { name: 'Coast road', lanes: 2 }),
  feature(
    { type: 'MultiLineString', coordinates: [[[25.0, 62.0], [25.5, 62.5]], [[26.0, 63.0], [26.25, 63.1], [26.5, 63.4]]] },
    { name: 'Split track', lanes: 1 },
  ),
];

export const POLYGONS: SourceFeature[] = [
  feature(
    {
      type: 'Polygon',
      coordinates: [
        [[24.0, 60.0], [26.0, 60.0], [26.0, 61.0], [24.0, 61.0], [24.0, 60.0]],
        [[24.5, 60.25], [24.5, 60.75], [25.5, 60.75], [25.5, 60.25], [24.5, 60.25]],
      ],
    },
    { name: 'Frame' },
  ),
  feature(
    {
      type: 'MultiPolygon',
      coordinates: [
        [[[21.0, 63.0], [22.0, 63.0], [22.0, 63.5], [21.0, 63.0]]],
        [[[27.0, 64.0], [28.0, 64.0], [28.0, 64.5], [27.0, 64.0]]],
      ],
    },
    { name: 'Two islands' },
  ),
];

export const collection = (features: SourceFeature[]) => ({ type: 'FeatureCollection', features });

/** A temporary folder, removed by `done`. */
export function tempFolder(): { dir: string; done: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gis-test-'));
  return { dir, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Runs ogr2ogr: `source` (GeoJSON objects) → `target` in `driver`, in EPSG `srs`, with extra options. */
export function ogr2ogr(dir: string, driver: string, target: string, layers: Record<string, SourceFeature[]>, srs: number, extra: string[] = []): string {
  const out = path.join(dir, target);
  let first = true;
  for (const [name, features] of Object.entries(layers)) {
    const source = path.join(dir, `${name}.geojson`);
    fs.writeFileSync(source, JSON.stringify(collection(features)));
    const args = ['-f', driver, '-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${srs}`, '-nln', name, ...extra];
    if (!first) args.push('-update');
    execFileSync('ogr2ogr', [...args, out, source], { stdio: 'pipe' });
    first = false;
  }
  return out;
}

/** A zipped shapefile of the layers (one .shp each) in EPSG `srs`; `extra` are ogr2ogr options (-lco ENCODING=…). */
export function zippedShapefile(layers: Record<string, SourceFeature[]>, srs: number, extra: string[] = [], leave: string[] = []): Uint8Array {
  const { dir, done } = tempFolder();
  try {
    const folder = path.join(dir, 'out');
    fs.mkdirSync(folder);
    for (const [name, features] of Object.entries(layers)) {
      const source = path.join(dir, `${name}.geojson`);
      fs.writeFileSync(source, JSON.stringify(collection(features)));
      execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', '-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${srs}`, '-nln', name, ...extra, path.join(folder, `${name}.shp`), source], { stdio: 'pipe' });
    }
    const files = fs.readdirSync(folder).filter((file) => !leave.some((extension) => file.endsWith(extension)));
    return makeZip(files.map((file) => ({ name: file, data: new Uint8Array(fs.readFileSync(path.join(folder, file))) })));
  } finally {
    done();
  }
}

/** A GIS file of one layer made by ogr2ogr: `driver` ("FlatGeobuf", "GPKG"), in EPSG `srs`. */
export function ogrFile(driver: string, extension: string, layers: Record<string, SourceFeature[]>, srs: number, extra: string[] = []): Uint8Array {
  const { dir, done } = tempFolder();
  try {
    return new Uint8Array(fs.readFileSync(ogr2ogr(dir, driver, `out.${extension}`, layers, srs, extra)));
  } finally {
    done();
  }
}

/** The features in the order of their `name` (files with a spatial index reorder them). */
export const byName = <T extends { properties: Record<string, unknown> }>(features: T[]): T[] =>
  [...features].sort((a, b) => String(a.properties.name).localeCompare(String(b.properties.name)));

/** Positions of a geometry as lists of rings/lines (points as one-position lists). */
function parts(geometry: { type: string; coordinates: unknown }): Position[][] {
  const c = geometry.coordinates as never;
  switch (geometry.type) {
    case 'Point':
      return [[c]];
    case 'MultiPoint':
    case 'LineString':
      return [c];
    case 'MultiLineString':
    case 'Polygon':
      return c;
    case 'MultiPolygon':
      return (c as Position[][][]).flat();
    default:
      throw new Error(`unexpected ${geometry.type}`);
  }
}

const near = (a: Position[], b: Position[], tolerance: number): boolean =>
  a.length === b.length && a.every((position, index) => Math.abs(position[0] - (b[index] as Position)[0]) <= tolerance && Math.abs(position[1] - (b[index] as Position)[1]) <= tolerance);

/** Expects the imported features to be the source's, in order, position by position (a ring may be reversed). */
export function expectSamePositions(imported: MapFeature[], source: SourceFeature[], tolerance = 1e-6): void {
  expect(imported.length).toBe(source.length);
  source.forEach((expected, index) => {
    const actual = imported[index] as MapFeature;
    const want = parts(expected.geometry);
    const got = parts(actual.geometry as never);
    expect(got.length, `feature ${index + 1} parts`).toBe(want.length);
    want.forEach((line, part) => {
      const mine = got[part] as Position[];
      const same = near(mine, line, tolerance) || near(mine, [...line].reverse(), tolerance);
      if (!same) expect(mine, `feature ${index + 1} part ${part + 1}`).toEqual(line);
    });
  });
}

/** A GIS reader as the tests call it, and the AppError it refuses a file with (throws if it accepts it). */
export function readerOf(read: FormatParser) {
  const parse = async (bytes: Uint8Array): Promise<ParsedFile> => read(bytes, { publicUrl: 'http://localhost:3000' });
  const failure = async (bytes: Uint8Array): Promise<AppError> => {
    try {
      await parse(bytes);
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('the file was accepted');
  };
  return { parse, failure };
}
