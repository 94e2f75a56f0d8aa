// Large GeoJSON features read from their bytes (lib/formats/geojsonLarge.ts) must come out as
// the object path makes them: the same feature, or the same refusal with the same words. Checked
// on generated features, valid and broken in every way the validator knows, and on whole files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { FeatureFileWriter, readFeatures } from '../../lib/formats/documentFile.js';
import { parseGeoJsonFile } from '../../lib/formats/geojson.js';
import { parseLargeFeature, parseLargeSingleFeature } from '../../lib/formats/geojsonLarge.js';
import { bytesInput } from '../../lib/formats/input.js';
import { materialized } from '../../lib/formats/jsonPieces.js';
import { parseFeatureAt, parseMapDocument } from '../../lib/geojson/model.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-geojson-large-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const groups = new Set<string | number>([1, 'g']);

/** What the object path makes of a feature's text: its JSON, or the refusal's message. */
function byObjects(text: string): string {
  try {
    return JSON.stringify(parseFeatureAt(JSON.parse(text), 3, 7, groups));
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

/** What the byte reader makes of it, written the way the document file writes it. */
function byBytes(text: string): string {
  try {
    const feature = parseLargeFeature(Buffer.from(text), 0, 3, 7, groups);
    return JSON.stringify(materialized(feature));
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.message}`;
    throw error;
  }
}

/** A small deterministic random source. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

const NUMBERS = [
  '0', '-0', '1', '-1', '12.5', '179.999999', '-180', '180', '180.0000001', '90', '-90.5', '1e2', '1E-3', '2.5e+1', '1e400', '-1e400',
  '0.1234567890123456789', '123456789012345678', '4.9e-324', '0.0000000000000000000000000', '-0.00000000766200240697400', '1e-400', '-0.0', '0e5',
];
const NOT_NUMBERS = ['"1"', 'null', 'true', '[1]', '{"a":1}', '[]', '"x\\u0041"'];

function numberText(r: ReturnType<typeof random>, broken: boolean): string {
  if (broken && r.next() < 0.05) return r.pick(NOT_NUMBERS);
  if (r.next() < 0.3) return r.pick(NUMBERS);
  return (r.next() * 340 - 170).toFixed(r.int(8));
}

function positionText(r: ReturnType<typeof random>, broken: boolean): string {
  if (broken && r.next() < 0.03) return r.pick(['5', '"p"', 'null', '{}']);
  const length = broken && r.next() < 0.04 ? r.pick([0, 1, 4, 5]) : r.pick([2, 2, 2, 3]);
  const items = Array.from({ length }, () => numberText(r, broken));
  const space = r.next() < 0.2 ? ' ' : '';
  return `[${space}${items.join(`${space},${space}`)}${space}]`;
}

function listText(r: ReturnType<typeof random>, broken: boolean, min: number, item: () => string): string {
  if (broken && r.next() < 0.03) return r.pick(['5', '"l"', 'null', '{}']);
  const length = broken && r.next() < 0.05 ? r.int(min + 1) : min + r.int(4);
  return `[${Array.from({ length }, item).join(',')}]`;
}

function ringText(r: ReturnType<typeof random>, broken: boolean): string {
  if (broken && r.next() < 0.05) return listText(r, broken, 4, () => positionText(r, broken));
  const first = positionText(r, broken);
  const middle = Array.from({ length: 2 + r.int(3) }, () => positionText(r, broken));
  const last = broken && r.next() < 0.1 ? positionText(r, broken) : first;
  return `[${[first, ...middle, last].join(',')}]`;
}

function coordinatesText(type: string, r: ReturnType<typeof random>, broken: boolean): string {
  switch (type) {
    case 'Point':
      return positionText(r, broken);
    case 'MultiPoint':
      return listText(r, broken, 1, () => positionText(r, broken));
    case 'LineString':
      return listText(r, broken, 2, () => positionText(r, broken));
    case 'MultiLineString':
      return listText(r, broken, 1, () => listText(r, broken, 2, () => positionText(r, broken)));
    case 'Polygon':
      return listText(r, broken, 1, () => ringText(r, broken));
    default:
      return listText(r, broken, 1, () => listText(r, broken, 1, () => ringText(r, broken)));
  }
}

const TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'];

function geometryText(r: ReturnType<typeof random>, broken: boolean, depth = 0): string {
  if (broken && r.next() < 0.02) return r.pick(['null', '5', '"g"', '[]', '{}', '{"coordinates":[1,2]}', '{"type":"Circle","coordinates":[1,2]}']);
  if (depth < 2 && r.next() < 0.08) {
    const members = Array.from({ length: broken && r.next() < 0.1 ? 0 : 1 + r.int(3) }, () => geometryText(r, broken, depth + 1));
    return `{"type":"GeometryCollection","geometries":[${members.join(',')}]}`;
  }
  const type = r.pick(TYPES);
  const members = [`"type":"${type}"`];
  if (!(broken && r.next() < 0.02)) members.push(`"coordinates":${coordinatesText(type, r, broken)}`);
  if (r.next() < 0.1) members.push(`"bbox":${r.pick(['[0,0,1,1]', '[0,"x"]', '"b"', '[1e400]'])}`);
  if (r.next() < 0.1) members.push(`"foreign":{"kept":false,"list":[1,{"a":[2]}]}`);
  if (r.next() < 0.05) members.push(`"coordin\\u0061tes":${coordinatesText(type, r, broken)}`);
  if (r.next() < 0.3) members.reverse();
  return `{${members.join(r.next() < 0.2 ? ' , ' : ',')}}`;
}

function featureText(r: ReturnType<typeof random>, broken: boolean): string {
  const members = [`"type":${broken && r.next() < 0.02 ? '"Topology"' : '"Feature"'}`, `"geometry":${geometryText(r, broken)}`];
  if (r.next() < 0.7) {
    members.push(`"properties":${r.pick(['{"title":"A"}', '{"group":1}', '{"group":"g","n":[1,2]}', 'null', '{}', broken ? '{"group":"nope"}' : '{"x":1}', broken ? '5' : '{"d":{"e":true}}'])}`);
  }
  if (r.next() < 0.2) members.push(`"id":${r.pick(['7', '7', 'null'])}`);
  if (r.next() < 0.5) members.reverse();
  return `{${members.join(',')}}`;
}

describe('large GeoJSON features read from bytes', () => {
  it('give the same features and the same refusals as the object path, on 6,000 generated ones', () => {
    const r = random(20261123);
    let refused = 0;
    for (let n = 0; n < 6_000; n++) {
      const text = featureText(r, n % 3 !== 0);
      const expected = byObjects(text);
      if (expected.startsWith('invalid_geojson')) refused++;
      expect(byBytes(text), text).toBe(expected);
    }
    // Both kinds were really tried.
    expect(refused).toBeGreaterThan(1_000);
    expect(6_000 - refused).toBeGreaterThan(500);
  });

  it('refuses text that is not JSON inside the coordinates, naming where', () => {
    for (const broken of ['[[1,2],[3,4]', '[[1,2] [3,4]]', '[[1,2],[3,4],]', '[[01,2],[3,4]]', '[[1.,2],[3,4]]', '[[1,2],[3,-]]', '[[1,2],[3,4}]', '[[1,2],["a\\x",4]]']) {
      const text = `{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":${broken}}}`;
      expect(() => JSON.parse(text)).toThrow();
      const result = byBytes(text);
      expect(result, broken).toMatch(/^invalid_geojson: the file is not valid JSON: .* \(in feature index 3\)$/);
    }
  });

  it('refuses what JSON.parse refuses in members no reader uses (shadowed, or of no use to the geometry)', () => {
    for (const text of [
      '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1 2 ]},"geometry":{"type":"Point","coordinates":[3,4]}}',
      '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2],"geometries":[nul, tru}}}',
      '{"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]}],"coordinates":[1 2 x]}}',
    ]) {
      expect(() => JSON.parse(text)).toThrow();
      expect(byBytes(text), text).toMatch(/^invalid_geojson: the file is not valid JSON/);
    }
    const single = '{"type":"Feature","coordinates":[1 2],"properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}';
    expect(() => parseLargeSingleFeature(Buffer.from(single))).toThrow(/not valid JSON/);
    const bare = '{"type":"Point","geometry":[1 2],"coordinates":[1,2]}';
    expect(() => parseLargeSingleFeature(Buffer.from(bare))).toThrow(/not valid JSON/);
  });

  it('reads a file that is one large Feature or bare geometry as the whole-file path does', () => {
    const rings = Array.from({ length: 30_000 }, (_, i) => `[[[${i % 170},${i % 80}],[${(i % 170) + 1},${i % 80}],[${(i % 170) + 1},${(i % 80) + 1}],[${i % 170},${i % 80}]]]`);
    const geometry = `{"type":"MultiPolygon","coordinates":[${rings.join(',')}]}`;
    for (const text of [geometry, `{"type":"Feature","id":12,"properties":{"title":"Big"},"geometry":${geometry}}`]) {
      expect(text.length).toBeGreaterThan(1024 * 1024);
      const feature = parseLargeSingleFeature(Buffer.from(text));
      const wrapped = JSON.parse(text).type === 'Feature' ? JSON.parse(text) : { type: 'Feature', geometry: JSON.parse(text), properties: {} };
      expect(JSON.stringify(materialized(feature!))).toBe(JSON.stringify(parseMapDocument({ type: 'FeatureCollection', features: [wrapped] }).features[0]));
    }
    expect(parseLargeSingleFeature(Buffer.from('{"type":"Topology"}'))).toBeNull();
  });

  it('writes a large feature to the document file in pieces, the same text as the object path', async () => {
    const rings = Array.from({ length: 40_000 }, (_, i) => `[[[${(i % 3600) / 10 - 180},${(i % 1700) / 10 - 85}],[${(i % 3600) / 10 - 179.9},${(i % 1700) / 10 - 85}],[${(i % 3600) / 10 - 179.9},${(i % 1700) / 10 - 84.9}],[${(i % 3600) / 10 - 180},${(i % 1700) / 10 - 85}]]]`);
    const big = `{"type":"Feature","properties":{"title":"Big"},"geometry":{"type":"MultiPolygon","coordinates":[${rings.join(',')}]}}`;
    const small = '{"type":"Feature","properties":{"title":"Small"},"geometry":{"type":"Point","coordinates":[1,2]}}';
    const file = `{"type":"FeatureCollection","features":[${small},${big},${small}]}`;
    const out = path.join(dir, 'document');
    const writer = new FeatureFileWriter(out);
    parseGeoJsonFile(bytesInput(Buffer.from(file)), writer);
    const { rowBytes } = writer.finish({ type: 'FeatureCollection', groups: [] });
    const source = { readStream: (_key: string, range?: { start: number; end: number }) => fs.createReadStream(out, range) };
    const written: unknown[] = [];
    for await (const feature of readFeatures(source, { key: 'x', rowBytes })) written.push(feature);
    expect(written).toEqual(parseMapDocument(JSON.parse(file)).features);
  });
});
