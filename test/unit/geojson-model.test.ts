import { describe, it, expect } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { rowOf } from '../../lib/formats/featureRows.js';
import { planAppend, type AppendOptions } from '../../lib/geojson/appendPlan.js';
import {
  MAX_FEATURES,
  emptyMapDocument,
  mediaReferences,
  parseMapDocument,
  type MapDocument,
  type MapFeature,
} from '../../lib/geojson/model.js';

/** Runs `run`, expects an invalid_geojson AppError whose message matches, returns the message. */
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

function point(lon: number, lat: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: {}, ...extra };
}

function withGeometry(geometry: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'Feature', geometry, properties: {}, ...extra };
}

function collection(features: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'FeatureCollection', features, ...extra };
}

const parseOne = (feature: unknown): MapFeature => parseMapDocument(collection([feature])).features[0] as MapFeature;

const square = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];

describe('emptyMapDocument', () => {
  it('is an empty FeatureCollection with no groups, fresh each time', () => {
    const a = emptyMapDocument();
    expect(a).toEqual({ type: 'FeatureCollection', features: [], groups: [] });
    a.features.push(parseOne(point(1, 1)));
    expect(emptyMapDocument().features).toHaveLength(0);
  });

  it('is accepted by parseMapDocument unchanged', () => {
    expect(parseMapDocument(emptyMapDocument())).toEqual(emptyMapDocument());
  });
});

describe('parseMapDocument: top level', () => {
  const topMessage = 'the top level must be a FeatureCollection with a "features" list';

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'FeatureCollection'],
    ['a number', 5],
    ['a Feature', point(1, 2)],
    ['a collection without features', { type: 'FeatureCollection' }],
    ['features that are an object', { type: 'FeatureCollection', features: {} }],
    ['a wrong type', { type: 'featurecollection', features: [] }],
  ])('rejects %s', (_name, input) => {
    expectInvalid(() => parseMapDocument(input), topMessage);
  });

  it('defaults missing or null groups to []', () => {
    expect(parseMapDocument(collection([])).groups).toEqual([]);
    expect(parseMapDocument(collection([], { groups: null })).groups).toEqual([]);
  });

  it('rejects groups that are not a list', () => {
    expectInvalid(() => parseMapDocument(collection([], { groups: { id: 1, title: 'a' } })), /"groups" must be a list/);
  });

  it('keeps other top-level keys as deep copies', () => {
    const markers = { custom: [{ id: 'm1', size: [20, 30] }] };
    const input = collection([point(1, 2)], { markers, properties: { zoom: 4 }, export: 'yes', nothing: null });
    const doc = parseMapDocument(input);
    expect(doc.markers).toEqual(markers);
    expect(doc.markers).not.toBe(markers);
    expect(doc.properties).toEqual({ zoom: 4 });
    expect(doc.export).toBe('yes');
    expect(doc.nothing).toBeNull();
    expect(Object.keys(doc).slice(0, 3)).toEqual(['type', 'features', 'groups']);
    (doc.markers as { custom: unknown[] }).custom.push('x');
    expect(markers.custom).toHaveLength(1);
  });

  it('applies the string and depth checks to other top-level keys', () => {
    expectInvalid(() => parseMapDocument(collection([], { settings: { name: 'a\u0000b' } })), 'top level: settings.name contains a NUL');
    expectInvalid(() => parseMapDocument(collection([], { ['bad\u0000key']: 1 })), /top level: the key .* contains a NUL/);
    expectInvalid(() => parseMapDocument(collection([], { settings: { name: '\udc00' } })), /lone surrogate/);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 40; i++) {
      const next = {};
      deep.a = next;
      deep = next;
    }
    expectInvalid(() => parseMapDocument(collection([], { settings: root })), /top level: settings\.a.*nested deeper than 32 levels/);
  });

  it('returns a deep copy and does not mutate the input', () => {
    const input = collection([point(1, 2, { properties: { title: 'a', tags: ['x'] } }), point(3, 4)], {
      groups: [{ title: 'g' }],
    });
    const snapshot = structuredClone(input);
    const doc = parseMapDocument(input);
    expect(input).toEqual(snapshot);
    const feature = doc.features[0] as MapFeature;
    expect(feature.properties).not.toBe((input.features as Record<string, unknown>[])[0]?.properties);
    expect(feature.properties.tags).not.toBe(((input.features as Record<string, Record<string, unknown>>[])[0]?.properties as Record<string, unknown>).tags);
  });

  it(`allows at most ${MAX_FEATURES} features`, () => {
    const feature = point(1, 2);
    const features = new Array<unknown>(MAX_FEATURES + 1).fill(feature);
    expectInvalid(() => parseMapDocument(collection(features)), `the document has ${MAX_FEATURES + 1} features; at most ${MAX_FEATURES}`);
  });

  it('validates a 10,000-feature document', () => {
    const features = [];
    for (let i = 0; i < 10_000; i++) {
      features.push(
        i % 2 === 0
          ? point((i % 360) - 180, (i % 180) - 90, { properties: { title: `item ${i}`, group: 1 } })
          : withGeometry({ type: 'LineString', coordinates: [[0, 0], [1, 1], [2, i % 90]] }, { id: i * 3 }),
      );
    }
    const doc = parseMapDocument(collection(features, { groups: [{ id: 1, title: 'all' }] }));
    expect(doc.features).toHaveLength(10_000);
    expect(new Set(doc.features.map((f) => f.id)).size).toBe(10_000);
  });
});

describe('parseMapDocument: features', () => {
  it('rejects a feature that is not an object or not a Feature', () => {
    expectInvalid(() => parseMapDocument(collection([point(1, 1), 'x'])), 'feature index 1 is not an object');
    expectInvalid(() => parseMapDocument(collection([null])), 'feature index 0 is not an object');
    expectInvalid(() => parseMapDocument(collection([{ ...point(1, 1), type: 'Point' }])), 'feature index 0: "type" must be "Feature"');
  });

  it('generates missing ids as max existing id + 1, + 2, …', () => {
    const doc = parseMapDocument(collection([point(0, 0, { id: 5 }), point(0, 0), point(0, 0, { id: 2 }), point(0, 0, { id: null })]));
    expect(doc.features.map((f) => f.id)).toEqual([5, 6, 2, 7]);
  });

  it('numbers a document without ids from 1', () => {
    const doc = parseMapDocument(collection([point(0, 0), point(0, 0), point(0, 0)]));
    expect(doc.features.map((f) => f.id)).toEqual([1, 2, 3]);
  });

  it('keeps id 0 and normalises -0 to 0', () => {
    expect(parseOne(point(0, 0, { id: 0 })).id).toBe(0);
    expect(Object.is(parseOne(point(0, 0, { id: -0 })).id, 0)).toBe(true);
  });

  it('fills gaps when max id + 1 would not be a safe integer', () => {
    const doc = parseMapDocument(
      collection([point(0, 0, { id: Number.MAX_SAFE_INTEGER }), point(0, 0, { id: 1 }), point(0, 0), point(0, 0)]),
    );
    const ids = doc.features.map((f) => f.id);
    expect(ids).toEqual([Number.MAX_SAFE_INTEGER, 1, 2, 3]);
  });

  it('rejects duplicate ids', () => {
    expectInvalid(
      () => parseMapDocument(collection([point(0, 0, { id: 3 }), point(0, 0), point(0, 0, { id: 3 })])),
      'feature 3 (index 2): id 3 is already used by feature index 0',
    );
  });

  it('rejects a numeric string id and says so', () => {
    const message = expectInvalid(() => parseOne(point(0, 0, { id: '7' })), 'feature index 0: id "7" is a string');
    expect(message).toMatch(/must be a number/);
  });

  it.each([
    ['negative', -1, '-1'],
    ['fractional', 1.5, '1.5'],
    ['unsafe', 2 ** 53, String(2 ** 53)],
    ['boolean', true, 'true'],
    ['non-numeric string', 'abc', '"abc"'],
  ])('rejects a %s id', (_name, id, shown) => {
    expectInvalid(() => parseOne(point(0, 0, { id })), `feature index 0: id ${shown} is not a non-negative integer`);
  });

  it('caps an echoed value at about 40 characters', () => {
    const message = expectInvalid(() => parseOne(point(0, 0, { id: 'x'.repeat(10_000) })), /is not a non-negative integer/);
    expect(message.length).toBeLessThan(120);
  });

  it('defaults missing or null properties to {} and rejects non-objects', () => {
    expect(parseOne({ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] } }).properties).toEqual({});
    expect(parseOne(point(1, 2, { properties: null })).properties).toEqual({});
    expectInvalid(() => parseOne(point(1, 2, { properties: [1] })), 'feature index 0: properties must be an object');
    expectInvalid(() => parseOne(point(1, 2, { id: 4, properties: 'x' })), 'feature 4 (index 0): properties must be an object');
  });

  it('keeps only type, id, geometry and properties on a feature', () => {
    const feature = parseOne(point(1, 2, { id: 9, bbox: [1, 2, 1, 2], extra: 'x', properties: { title: 'T' } }));
    expect(feature).toEqual({
      type: 'Feature',
      id: 9,
      geometry: { type: 'Point', coordinates: [1, 2] },
      properties: { title: 'T' },
    });
  });
});

describe('parseMapDocument: geometry', () => {
  it('accepts all seven geometry types', () => {
    const geometries = [
      { type: 'Point', coordinates: [10, 20, 300] },
      { type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] },
      { type: 'LineString', coordinates: [[1, 2], [3, 4]] },
      { type: 'MultiLineString', coordinates: [[[1, 2], [3, 4]], [[5, 6], [7, 8], [9, 10]]] },
      { type: 'Polygon', coordinates: [square] },
      { type: 'MultiPolygon', coordinates: [[square], [square, square]] },
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          { type: 'GeometryCollection', geometries: [{ type: 'LineString', coordinates: [[1, 2], [3, 4]] }] },
        ],
      },
    ];
    const doc = parseMapDocument(collection(geometries.map((g) => withGeometry(g))));
    expect(doc.features.map((f) => f.geometry)).toEqual(geometries);
  });

  it('keeps 180/-180 and 90/-90 and a third coordinate', () => {
    const line = { type: 'LineString', coordinates: [[-180, -90], [180, 90, -5]] };
    expect(parseOne(withGeometry(line)).geometry).toEqual(line);
  });

  it('keeps a valid bbox, drops an invalid one and other geometry members', () => {
    expect(parseOne(withGeometry({ type: 'Point', coordinates: [1, 2], bbox: [1, 2, 1, 2] })).geometry).toEqual({
      type: 'Point',
      coordinates: [1, 2],
      bbox: [1, 2, 1, 2],
    });
    for (const bbox of ['1,2,3,4', [1, '2'], [1, Number.NaN], null, { a: 1 }]) {
      expect(parseOne(withGeometry({ type: 'Point', coordinates: [1, 2], bbox, crs: 'x' })).geometry).toEqual({
        type: 'Point',
        coordinates: [1, 2],
      });
    }
  });

  it('rejects null and missing geometry', () => {
    expectInvalid(() => parseOne(withGeometry(null)), 'feature index 0: geometry is null; a map item needs a place');
    expectInvalid(() => parseOne({ type: 'Feature', id: 3, properties: {} }), 'feature 3 (index 0): geometry is missing');
    expectInvalid(() => parseOne(withGeometry([1, 2])), 'geometry is not a GeoJSON geometry object');
  });

  it('rejects an unknown or missing geometry type', () => {
    expectInvalid(() => parseOne(withGeometry({ type: 'Circle', coordinates: [1, 2] })), 'geometry type "Circle" is not a GeoJSON geometry type');
    expectInvalid(() => parseOne(withGeometry({ type: 'point', coordinates: [1, 2] })), /type "point" is not a GeoJSON geometry type/);
    expectInvalid(() => parseOne(withGeometry({ coordinates: [1, 2] })), 'geometry has no "type"');
  });

  it('rejects a coordinate that is not a number', () => {
    expectInvalid(
      () => parseMapDocument(collection([point(0, 0, { id: 1 }), point(0, 0, { id: 2 }), withGeometry({ type: 'LineString', coordinates: [[1, 2], ['3', 4]] }, { id: 3 })])),
      'feature 3 (index 2): coordinates[1][0] is not a number',
    );
    expectInvalid(() => parseOne(withGeometry({ type: 'Point', coordinates: [1, null] })), 'coordinates[1] is not a number');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('rejects %s coordinates', (name, value) => {
    expectInvalid(() => parseOne(withGeometry({ type: 'Point', coordinates: [value, 1] })), `coordinates[0] is not a finite number (${name})`);
    expectInvalid(
      () => parseOne(withGeometry({ type: 'MultiPoint', coordinates: [[1, 1], [2, value]] })),
      `coordinates[1][1] is not a finite number (${name})`,
    );
    expectInvalid(() => parseOne(withGeometry({ type: 'Point', coordinates: [1, 1, value] })), 'coordinates[2] is not a finite number');
  });

  it('rejects 1e400 (parsed from JSON text as Infinity)', () => {
    const input: unknown = JSON.parse('{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1e400,2]},"properties":{}}]}');
    expectInvalid(() => parseMapDocument(input), 'feature index 0: coordinates[0] is not a finite number (Infinity)');
  });

  it('rejects out-of-range latitude and longitude', () => {
    expectInvalid(() => parseOne(point(10, 95)), 'feature index 0: latitude 95 is outside -90..90');
    expectInvalid(() => parseOne(point(10, -90.5)), 'latitude -90.5 is outside -90..90');
    expectInvalid(() => parseOne(point(181, 0, { id: 8 })), 'feature 8 (index 0): longitude 181 is outside -180..180');
    expectInvalid(
      () => parseOne(withGeometry({ type: 'LineString', coordinates: [[0, 0], [-180.01, 0]] })),
      'longitude -180.01 is outside -180..180 at coordinates[1]',
    );
  });

  it('rejects positions with the wrong number of values', () => {
    expectInvalid(() => parseOne(withGeometry({ type: 'Point', coordinates: [1] })), 'coordinates has 1 value; a position has 2 or 3 numbers');
    expectInvalid(() => parseOne(withGeometry({ type: 'Point', coordinates: [1, 2, 3, 4] })), 'coordinates has 4 values');
    expectInvalid(() => parseOne(withGeometry({ type: 'MultiPoint', coordinates: [[1, 2], 5] })), 'coordinates[1] is not a position');
    expectInvalid(() => parseOne(withGeometry({ type: 'Point' })), 'coordinates is not a position');
  });

  it('rejects a LineString with one position', () => {
    expectInvalid(() => parseOne(withGeometry({ type: 'LineString', coordinates: [[1, 2]] })), 'feature index 0: coordinates has 1 position; a line needs at least 2');
    expectInvalid(
      () => parseOne(withGeometry({ type: 'MultiLineString', coordinates: [[[1, 2], [3, 4]], [[1, 2]]] })),
      'coordinates[1] has 1 position; a line needs at least 2',
    );
  });

  it('rejects an unclosed polygon ring', () => {
    const features = [point(0, 0), point(0, 0), point(0, 0), point(0, 0), withGeometry({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] })];
    expectInvalid(
      () => parseMapDocument(collection(features)),
      'feature index 4: polygon ring 0 is not closed (first and last positions differ)',
    );
    expectInvalid(
      () => parseOne(withGeometry({ type: 'MultiPolygon', coordinates: [[square], [square, [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0.5]]]] })),
      'polygon ring 1 is not closed (first and last positions differ) in coordinates[1]',
    );
  });

  it('rejects a ring with 3 positions', () => {
    expectInvalid(
      () => parseOne(withGeometry({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] })),
      'feature index 0: polygon ring 0 has 3 positions; a ring needs at least 4',
    );
  });

  it('rejects a polygon without rings and empty multi-geometries', () => {
    expectInvalid(() => parseOne(withGeometry({ type: 'Polygon', coordinates: [] })), 'a polygon needs at least one ring');
    expectInvalid(() => parseOne(withGeometry({ type: 'MultiPoint', coordinates: [] })), 'a MultiPoint needs at least one position');
    expectInvalid(() => parseOne(withGeometry({ type: 'MultiPolygon', coordinates: [] })), 'a MultiPolygon needs at least one polygon');
    expectInvalid(() => parseOne(withGeometry({ type: 'GeometryCollection', geometries: [] })), 'a GeometryCollection needs at least one geometry');
    expectInvalid(() => parseOne(withGeometry({ type: 'GeometryCollection' })), 'geometries is missing or not a list');
  });

  it('names the path inside a GeometryCollection', () => {
    const geometry = {
      type: 'GeometryCollection',
      geometries: [{ type: 'Point', coordinates: [1, 2] }, { type: 'LineString', coordinates: [[1, 2], [3, 'x']] }],
    };
    expectInvalid(() => parseOne(withGeometry(geometry)), 'feature index 0: geometries[1].coordinates[1][1] is not a number');
    expectInvalid(
      () => parseOne(withGeometry({ type: 'GeometryCollection', geometries: [null] })),
      'geometries[0] is null',
    );
    expectInvalid(
      () => parseOne(withGeometry({ type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }] })),
      'polygon ring 0 is not closed (first and last positions differ) in geometries[0]',
    );
  });

  it('allows GeometryCollections nested 8 deep but not 9', () => {
    const nest = (levels: number): unknown => {
      let geometry: unknown = { type: 'Point', coordinates: [1, 2] };
      for (let i = 0; i < levels; i++) geometry = { type: 'GeometryCollection', geometries: [geometry] };
      return geometry;
    };
    expect(parseOne(withGeometry(nest(8))).geometry).toEqual(nest(8));
    expectInvalid(() => parseOne(withGeometry(nest(9))), /nested more than 8 deep/);
  });
});

describe('parseMapDocument: groups', () => {
  it('keeps ids, titles, parents and other keys', () => {
    const groups = [
      { id: 1, title: 'Top', color: '#ff0000', visible: false },
      { id: 'sub', title: 'Sub', parent: 1 },
      { id: '5', title: 'Five', parent: 'sub' },
    ];
    expect(parseMapDocument(collection([], { groups })).groups).toEqual(groups);
  });

  it('generates unique integer ids for groups without one', () => {
    const doc = parseMapDocument(collection([], { groups: [{ title: 'a' }, { id: 3, title: 'b' }, { id: 'x', title: 'c' }, { id: null, title: 'd' }] }));
    expect(doc.groups.map((g) => g.id)).toEqual([4, 3, 'x', 5]);
  });

  it('requires a string title', () => {
    expectInvalid(() => parseMapDocument(collection([], { groups: [{ id: 1, title: 'a' }, { id: 2 }] })), 'groups[1] has no "title"');
    expectInvalid(() => parseMapDocument(collection([], { groups: [{ id: 1, title: 7 }] })), 'groups[0]: "title" must be a string');
    expectInvalid(() => parseMapDocument(collection([], { groups: ['a'] })), 'groups[0] is not an object');
  });

  it.each([
    ['an empty string', '', 'id is an empty string'],
    ['a long string', 'g'.repeat(201), 'id is longer than 200 characters'],
    ['a fraction', 1.5, 'id 1.5 is neither'],
    ['a negative number', -2, 'id -2 is neither'],
    ['a boolean', true, 'id true is neither'],
    ['an object', { a: 1 }, 'id an object is neither'],
  ])('rejects a group id that is %s', (_name, id, message) => {
    expectInvalid(() => parseMapDocument(collection([], { groups: [{ id, title: 't' }] })), `groups[0]: ${message}`);
  });

  it('accepts a 200-character string id', () => {
    const id = 'g'.repeat(200);
    expect(parseMapDocument(collection([], { groups: [{ id, title: 't' }] })).groups[0]?.id).toBe(id);
  });

  it('rejects duplicate group ids but tells 5 from "5"', () => {
    expectInvalid(
      () => parseMapDocument(collection([], { groups: [{ id: 5, title: 'a' }, { id: 5, title: 'b' }] })),
      'groups[1]: id 5 is already used by groups[0]',
    );
    expect(parseMapDocument(collection([], { groups: [{ id: 5, title: 'a' }, { id: '5', title: 'b' }] })).groups).toHaveLength(2);
  });

  it('rejects a parent that is not a group of the document', () => {
    expectInvalid(
      () => parseMapDocument(collection([], { groups: [{ id: 1, title: 'a' }, { id: 2, title: 'b', parent: 'x' }] })),
      'groups[1]: parent "x" is not a group of this document',
    );
    expectInvalid(
      () => parseMapDocument(collection([], { groups: [{ id: 1, title: 'a' }, { id: 2, title: 'b', parent: '1' }] })),
      'groups[1]: parent "1" is not a group of this document',
    );
  });

  it('rejects a group that is its own parent', () => {
    expectInvalid(() => parseMapDocument(collection([], { groups: [{ id: 'a', title: 'a', parent: 'a' }] })), 'groups[0]: a group cannot be its own parent');
  });

  it('rejects parent cycles', () => {
    const groups = [
      { id: 1, title: 'root' },
      { id: 2, title: 'a', parent: 4 },
      { id: 3, title: 'b', parent: 2 },
      { id: 4, title: 'c', parent: 3 },
    ];
    expectInvalid(() => parseMapDocument(collection([], { groups })), /the parents form a cycle/);
    const pair = [
      { id: 'x', title: 'x', parent: 'y' },
      { id: 'y', title: 'y', parent: 'x' },
    ];
    expectInvalid(() => parseMapDocument(collection([], { groups: pair })), /groups\[\d\]: the parents form a cycle \(group "[xy]" is its own ancestor\)/);
  });

  it('accepts a long parent chain and drops a null parent', () => {
    const groups = [{ id: 0, title: 'g0', parent: null }, ...Array.from({ length: 999 }, (_, i) => ({ id: i + 1, title: `g${i + 1}`, parent: i }))];
    const doc = parseMapDocument(collection([], { groups }));
    expect(doc.groups[0]).toEqual({ id: 0, title: 'g0' });
    expect(doc.groups[999]?.parent).toBe(998);
  });

  it('applies the string checks to group titles and other keys', () => {
    expectInvalid(() => parseMapDocument(collection([], { groups: [{ id: 1, title: 'a\u0000' }] })), 'groups[0]: title contains a NUL character');
    expectInvalid(() => parseMapDocument(collection([], { groups: [{ id: 1, title: 'a', meta: { x: '\ud800' } }] })), 'groups[0]: meta.x contains a lone surrogate');
  });
});

describe('parseMapDocument: feature group references', () => {
  const groups = [
    { id: 5, title: 'five' },
    { id: 'x', title: 'ex' },
  ];

  it('accepts references to groups of the document, and null', () => {
    const doc = parseMapDocument(
      collection([point(0, 0, { properties: { group: 5 } }), point(0, 0, { properties: { group: 'x' } }), point(0, 0, { properties: { group: null } })], { groups }),
    );
    expect(doc.features.map((f) => f.properties.group)).toEqual([5, 'x', null]);
  });

  it('rejects a reference to an undefined group', () => {
    expectInvalid(
      () => parseMapDocument(collection([point(0, 0, { id: 12, properties: { group: 6 } })], { groups })),
      'feature 12 names group 6, which the document does not define',
    );
    expectInvalid(
      () => parseMapDocument(collection([point(0, 0, { id: 12, properties: { group: 5 } })])),
      'feature 12 names group 5, which the document does not define',
    );
    expectInvalid(
      () => parseMapDocument(collection([point(0, 0, { properties: { group: 'y' } })], { groups })),
      'feature index 0 names group "y", which the document does not define',
    );
  });

  it('compares with === (a string "5" does not name group 5)', () => {
    expectInvalid(
      () => parseMapDocument(collection([point(0, 0, { id: 1, properties: { group: '5' } })], { groups })),
      'feature 1 names group "5"',
    );
  });
});

describe('parseMapDocument: strings, depth and prototype safety', () => {
  it('rejects a NUL character in a property value or key', () => {
    expectInvalid(() => parseOne(point(0, 0, { properties: { title: 'a\u0000b' } })), 'feature index 0: properties.title contains a NUL character (U+0000)');
    expectInvalid(() => parseOne(point(0, 0, { id: 2, properties: { tags: ['ok', 'b\u0000'] } })), 'feature 2 (index 0): properties.tags[1] contains a NUL');
    expectInvalid(() => parseOne(point(0, 0, { properties: { nested: { ['k\u0000']: 1 } } })), /a key "k\\u0000" in properties\.nested contains a NUL/);
  });

  it('rejects lone surrogates in values and keys, accepts proper pairs', () => {
    expectInvalid(() => parseOne(point(0, 0, { properties: { title: 'bad \ud83d' } })), 'properties.title contains a lone surrogate');
    expectInvalid(() => parseOne(point(0, 0, { properties: { d: { e: '\udc00x' } } })), 'properties.d.e contains a lone surrogate');
    expectInvalid(() => parseOne(point(0, 0, { properties: { ['\ud800']: 1 } })), /a key .* in properties contains a lone surrogate/);
    expect(parseOne(point(0, 0, { properties: { title: 'smile 😀 ✓' } })).properties.title).toBe('smile 😀 ✓');
  });

  it('rejects non-finite numbers and non-JSON values in properties', () => {
    expectInvalid(() => parseOne(point(0, 0, { properties: { n: Number.NaN } })), 'properties.n is not a finite number (NaN)');
    expectInvalid(() => parseOne(point(0, 0, { properties: { f: () => 1 } })), 'properties.f is not JSON data (function)');
    expectInvalid(() => parseOne(point(0, 0, { properties: { d: new Date(0) } })), 'properties.d is not plain JSON data');
  });

  it('drops undefined members and turns undefined list items into null', () => {
    expect(parseOne(point(0, 0, { properties: { a: undefined, b: [undefined, 1] } })).properties).toEqual({ b: [null, 1] });
  });

  const nested = (levels: number): Record<string, unknown> => {
    const root: Record<string, unknown> = {};
    let at = root;
    for (let i = 1; i < levels; i++) {
      const next: Record<string, unknown> = {};
      at.a = next;
      at = next;
    }
    at.leaf = 'x';
    return root;
  };

  it('accepts properties nested 32 levels deep, not 33', () => {
    const props = nested(32);
    expect(parseOne(point(0, 0, { properties: props })).properties).toEqual(props);
    expectInvalid(() => parseOne(point(0, 0, { properties: nested(33) })), /feature index 0: properties\.a\.a\.a…a\.a\.a is nested deeper than 32 levels/);
  });

  it('rejects 300,000-deep properties with the depth error, not a RangeError', () => {
    const message = expectInvalid(() => parseOne(point(0, 0, { properties: nested(300_000) })), 'is nested deeper than 32 levels');
    expect(message.length).toBeLessThan(200);
    let list: unknown[] = [];
    const root = list;
    for (let i = 0; i < 300_000; i++) {
      const next: unknown[] = [];
      list.push(next);
      list = next;
    }
    expectInvalid(() => parseOne(point(0, 0, { properties: { list: root } })), 'properties.list[0][0]');
  });

  it('rejects a reference cycle through the depth limit', () => {
    const props: Record<string, unknown> = {};
    props.self = props;
    expectInvalid(() => parseOne(point(0, 0, { properties: props })), 'is nested deeper than 32 levels');
  });

  it('copies __proto__ and constructor keys as plain data without polluting prototypes', () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} }],
      groups: [{ id: 1, title: 'g' }],
    })
      .replace('"properties":{}', '"properties":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"nested":{"__proto__":{"polluted":"yes"}}}')
      .replace('"title":"g"', '"title":"g","__proto__":{"polluted":"yes"}')
      .replace('"type":"FeatureCollection"', '"type":"FeatureCollection","__proto__":{"polluted":"yes"}');
    const doc = parseMapDocument(JSON.parse(text));
    const properties = (doc.features[0] as MapFeature).properties;

    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.hasOwn(properties, 'constructor')).toBe(true);
    expect((properties as { polluted?: unknown }).polluted).toBeUndefined();
    const inner = properties.nested as Record<string, unknown>;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.hasOwn(inner, '__proto__')).toBe(true);

    const group = doc.groups[0] as Record<string, unknown>;
    expect(Object.hasOwn(group, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(group)).toBe(Object.prototype);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect((doc as { polluted?: unknown }).polluted).toBeUndefined();

    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // A JSON round trip keeps the keys as data.
    expect(JSON.stringify(doc)).toContain('"__proto__":{"polluted":"yes"}');
  });
});

describe('planAppend', () => {
  const target = (): MapDocument =>
    parseMapDocument(
      collection(
        [point(0, 0, { id: 1, properties: { group: 1 } }), point(1, 1, { id: 7 })],
        { groups: [{ id: 1, title: 'A' }, { id: 'keep', title: 'K' }], settings: { from: 'target' }, only_target: 1 },
      ),
    );
  const incoming = (): MapDocument =>
    parseMapDocument(
      collection(
        [
          point(2, 2, { id: 1, properties: { group: 1, title: 'one' } }),
          point(3, 3, { id: 2, properties: { group: 'sub' } }),
          point(4, 4, { id: 3, properties: { group: 'new' } }),
          point(5, 5, { id: 50 }),
        ],
        {
          groups: [
            { id: 1, title: 'B' },
            { id: 'sub', title: 'Sub', parent: 1 },
            { id: 'new', title: 'New' },
            { id: 'keep', title: 'K2', parent: 'new' },
          ],
          settings: { from: 'incoming' },
          only_incoming: 2,
        },
      ),
    );
  /**
   * The plan for appending `from` to `to`, and the features it places, in order, as rows (their
   * texts changed without parsing where only the id changes): each row's columns are those of
   * the feature its text holds, and the text is the feature's JSON.stringify text.
   */
  const append = (to: MapDocument, from: MapDocument, options?: AppendOptions) => {
    const { features, ...head } = from;
    const nextFeatureId = Math.max(0, ...to.features.map((feature) => feature.id)) + 1;
    const plan = planAppend({ groups: to.groups, nextFeatureId }, head, options);
    const rows = features.map((feature) => plan.placeRow(rowOf(feature, JSON.stringify(feature))));
    const placed = rows.map((row) => JSON.parse(row.text) as MapFeature);
    expect(rows).toEqual(placed.map((feature) => rowOf(feature, JSON.stringify(feature))));
    return { plan, placed };
  };

  it('gives incoming features fresh ids and remaps colliding group ids', () => {
    const t = target();
    const i = incoming();
    const before = structuredClone([t, i]);
    const { plan, placed } = append(t, i);
    expect(placed.map((f) => f.id)).toEqual([8, 9, 10, 11]);
    // Target group 1 and "keep" collide: incoming 1 → 2, incoming "keep" → 3 (max numeric id was 1).
    expect(plan.groupsToAdd).toEqual([
      { id: 2, title: 'B' },
      { id: 'sub', title: 'Sub', parent: 2 },
      { id: 'new', title: 'New' },
      { id: 3, title: 'K2', parent: 'new' },
    ]);
    expect(plan.keepsGroups).toBe(false);
    expect(placed.map((f) => f.properties.group)).toEqual([2, 'sub', 'new', undefined]);
    expect(placed[0]?.properties.title).toBe('one');
    // Inputs untouched.
    expect([t, i]).toEqual(before);
    // The result is still a valid document.
    const document = { ...t, features: [...t.features, ...placed], groups: [...t.groups, ...plan.groupsToAdd] };
    expect(parseMapDocument(document)).toEqual(document);
  });

  it("hands on the incoming document's other top-level keys (the map's own win where it is written)", () => {
    expect(append(target(), incoming()).plan.extras).toEqual({ settings: { from: 'incoming' }, only_incoming: 2 });
  });

  it('appends to an empty document with ids from 1, keeping groups as they are', () => {
    const { plan, placed } = append(emptyMapDocument(), incoming());
    expect(placed.map((f) => f.id)).toEqual([1, 2, 3, 4]);
    expect(plan.groupsToAdd.map((g) => g.id)).toEqual([1, 'sub', 'new', 'keep']);
    expect(plan.keepsGroups).toBe(true);
  });

  it('with newGroupTitle puts every incoming item directly into a new group', () => {
    const { plan, placed } = append(target(), incoming(), { newGroupTitle: 'Imported' });
    expect(plan.groupsToAdd).toEqual([{ id: 2, title: 'Imported' }]);
    expect(placed.map((f) => f.properties.group)).toEqual([2, 2, 2, 2]);
    expect(plan.keepsGroups).toBe(false);
  });

  it('with newGroupTitle and keepSubgroups keeps the incoming groups below the new group', () => {
    const { plan, placed } = append(target(), incoming(), { newGroupTitle: 'Table', keepSubgroups: true });
    // New group takes 2, then colliding incoming 1 → 3 and "keep" → 4.
    expect(plan.groupsToAdd).toEqual([
      { id: 2, title: 'Table' },
      { id: 3, title: 'B', parent: 2 },
      { id: 'sub', title: 'Sub', parent: 3 },
      { id: 'new', title: 'New', parent: 2 },
      { id: 4, title: 'K2', parent: 'new' },
    ]);
    expect(placed.map((f) => f.properties.group)).toEqual([3, 'sub', 'new', 2]);
  });

  it('keepSubgroups without newGroupTitle is a plain append', () => {
    const plain = append(target(), incoming());
    const kept = append(target(), incoming(), { keepSubgroups: true });
    expect([kept.plan.groupsToAdd, kept.placed, kept.plan.extras]).toEqual([plain.plan.groupsToAdd, plain.placed, plain.plan.extras]);
  });
});

describe('mediaReferences', () => {
  it('lists image and marker ids, deduplicated and sorted', () => {
    const doc = parseMapDocument(
      collection([
        point(0, 0, { properties: { image: { id: 'img-b', w: 10, h: 20 }, marker_id: 'm2' } }),
        point(0, 0, { properties: { image: { id: 'img-a' }, marker_id: 'm1' } }),
        point(0, 0, { properties: { image: { id: 'img-b' }, marker_id: 'm2' } }),
        point(0, 0, { properties: { image: { w: 1 }, marker_id: 5 } }),
        point(0, 0, { properties: { image: 'img-c', marker_id: '' } }),
        point(0, 0, { properties: { image: null } }),
        point(0, 0),
      ]),
    );
    expect(mediaReferences(doc)).toEqual({ images: ['img-a', 'img-b'], markers: ['m1', 'm2'] });
  });

  it('is empty for an empty document', () => {
    expect(mediaReferences(emptyMapDocument())).toEqual({ images: [], markers: [] });
  });
});
