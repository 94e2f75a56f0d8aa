import { describe, it, expect } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { parseGeoJsonFile } from '../../lib/formats/geojson.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function expectInvalid(run: () => unknown, message: RegExp | string): string {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppError);
  const error = caught as AppError;
  expect(error.code).toBe('invalid_geojson');
  if (typeof message === 'string') expect(error.message).toContain(message);
  else expect(error.message).toMatch(message);
  return error.message;
}

const featureCollection = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', id: 4, geometry: { type: 'Point', coordinates: [13.4, 52.5] }, properties: { title: 'Berlin', group: 1 } },
    { type: 'Feature', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: null },
  ],
  groups: [{ id: 1, title: 'Cities' }],
  markers: { custom: true },
};

describe('parseGeoJsonFile', () => {
  it('parses a FeatureCollection with its groups and other keys', () => {
    const doc = parseGeoJsonFile(encode(JSON.stringify(featureCollection)));
    expect(doc.features.map((f) => f.id)).toEqual([4, 5]);
    expect(doc.features[0]?.properties).toEqual({ title: 'Berlin', group: 1 });
    expect(doc.features[1]?.properties).toEqual({});
    expect(doc.groups).toEqual([{ id: 1, title: 'Cities' }]);
    expect(doc.markers).toEqual({ custom: true });
  });

  it('accepts a UTF-8 byte order mark and non-ASCII text', () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'Zürich ✓ 😀' } }],
    });
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(text)]);
    const doc = parseGeoJsonFile(bytes);
    expect(doc.features[0]?.properties.title).toBe('Zürich ✓ 😀');
  });

  it('accepts a Buffer', () => {
    const doc = parseGeoJsonFile(Buffer.from(JSON.stringify(featureCollection), 'utf8'));
    expect(doc.features).toHaveLength(2);
  });

  it('wraps a single Feature', () => {
    const doc = parseGeoJsonFile(
      encode(JSON.stringify({ type: 'Feature', id: 9, geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'x' } })),
    );
    expect(doc).toEqual({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', id: 9, geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'x' } }],
      groups: [],
    });
  });

  it('wraps a bare geometry into one feature', () => {
    const polygon = { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] };
    const doc = parseGeoJsonFile(encode(JSON.stringify(polygon)));
    expect(doc).toEqual({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', id: 1, geometry: polygon, properties: {} }],
      groups: [],
    });
    const collection = { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [3, 4] }] };
    expect(parseGeoJsonFile(encode(JSON.stringify(collection))).features[0]?.geometry).toEqual(collection);
  });

  it('rejects invalid UTF-8', () => {
    expectInvalid(() => parseGeoJsonFile(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), 'the file is not UTF-8 text');
    expectInvalid(() => parseGeoJsonFile(new Uint8Array([0x22, 0xe2, 0x82, 0x22])), 'the file is not UTF-8 text');
    // UTF-16 with its byte order mark is not UTF-8 either.
    expectInvalid(() => parseGeoJsonFile(new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])), 'the file is not UTF-8 text');
  });

  it('rejects an empty file', () => {
    expectInvalid(() => parseGeoJsonFile(new Uint8Array()), 'the file is empty');
    expectInvalid(() => parseGeoJsonFile(encode(' \n\t ')), 'the file is empty');
    expectInvalid(() => parseGeoJsonFile(new Uint8Array([0xef, 0xbb, 0xbf])), 'the file is empty');
  });

  it('rejects invalid JSON with a short reason', () => {
    const message = expectInvalid(() => parseGeoJsonFile(encode('{"type": "FeatureCollection", "features": [')), /^the file is not valid JSON: \S/);
    expect(message.length).toBeLessThan(160);
    const long = `{"type": ${'x'.repeat(100_000)}}`;
    expect(expectInvalid(() => parseGeoJsonFile(encode(long)), 'the file is not valid JSON: ').length).toBeLessThan(160);
    expectInvalid(() => parseGeoJsonFile(encode("{'type': 'Point'}")), 'the file is not valid JSON: ');
  });

  it.each([
    ['a JSON array', '[{"type":"Point","coordinates":[1,2]}]', 'not a list'],
    ['a number', '42', 'not a number'],
    ['a string', '"FeatureCollection"', 'not a string'],
    ['null', 'null', 'not null'],
    ['a boolean', 'true', 'not a boolean'],
  ])('rejects %s', (_name, text, message) => {
    expectInvalid(() => parseGeoJsonFile(encode(text)), `the file must hold a GeoJSON object (a FeatureCollection, a Feature or a geometry), ${message}`);
  });

  it('rejects an object that is not GeoJSON', () => {
    expectInvalid(() => parseGeoJsonFile(encode('{"features": []}')), 'has no "type"');
    expectInvalid(() => parseGeoJsonFile(encode('{"type": "Topology", "objects": {}}')), 'the file\'s GeoJSON type "Topology" is not a FeatureCollection, a Feature or a geometry');
  });

  it('reports validation problems of the content', () => {
    expectInvalid(
      () => parseGeoJsonFile(encode('{"type":"Point","coordinates":[1e400,2]}')),
      'feature index 0: coordinates[0] is not a finite number (Infinity)',
    );
    expectInvalid(
      () => parseGeoJsonFile(encode('{"type":"Feature","id":3,"geometry":{"type":"Point","coordinates":[1,95]},"properties":{}}')),
      'feature 3 (index 0): latitude 95 is outside -90..90',
    );
    expectInvalid(() => parseGeoJsonFile(encode('{"type":"Feature","geometry":null,"properties":{}}')), 'feature index 0: geometry is null');
    expectInvalid(
      () => parseGeoJsonFile(encode('{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"t":"a\\u0000b"}}')),
      'properties.t contains a NUL character',
    );
    expectInvalid(
      () => parseGeoJsonFile(encode('{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"t":"\\ud800"}}')),
      'properties.t contains a lone surrogate',
    );
  });

  it('keeps a __proto__ key as data', () => {
    const doc = parseGeoJsonFile(
      encode('{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"__proto__":{"polluted":true}}}'),
    );
    const properties = doc.features[0]?.properties ?? {};
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('rejects very deep nesting in a file with the depth error', () => {
    const depth = 300_000;
    const text = `{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
    expectInvalid(() => parseGeoJsonFile(encode(text)), /properties\.x\.a\.a….* is nested deeper than 32 levels/);
  });
});
