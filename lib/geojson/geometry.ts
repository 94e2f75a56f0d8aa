// GeoJSON geometries of a map document: types, and validation that returns a normalised copy.
// Only `type`, `coordinates`/`geometries` and a valid `bbox` are kept; other members are dropped.

import { Problem, describe, isObjectRecord } from './json-data.js';

/** [longitude, latitude] or [longitude, latitude, altitude]. */
export type Position = [number, number] | [number, number, number];
export type BBox = number[];

export interface Point {
  type: 'Point';
  coordinates: Position;
  bbox?: BBox;
}
export interface MultiPoint {
  type: 'MultiPoint';
  coordinates: Position[];
  bbox?: BBox;
}
export interface LineString {
  type: 'LineString';
  coordinates: Position[];
  bbox?: BBox;
}
export interface MultiLineString {
  type: 'MultiLineString';
  coordinates: Position[][];
  bbox?: BBox;
}
export interface Polygon {
  type: 'Polygon';
  coordinates: Position[][];
  bbox?: BBox;
}
export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: Position[][][];
  bbox?: BBox;
}
export interface GeometryCollection {
  type: 'GeometryCollection';
  geometries: Geometry[];
  bbox?: BBox;
}
export type Geometry =
  | Point
  | MultiPoint
  | LineString
  | MultiLineString
  | Polygon
  | MultiPolygon
  | GeometryCollection;
export type GeometryType = Geometry['type'];

export const GEOMETRY_TYPES: readonly GeometryType[] = [
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
];

export function isGeometryType(value: unknown): value is GeometryType {
  return typeof value === 'string' && (GEOMETRY_TYPES as readonly string[]).includes(value);
}

/** GeometryCollections may contain collections down to this many levels (the outer one is 1). */
export const MAX_COLLECTION_DEPTH = 8;

/** `coordinates[i][j][k]`, with -1 meaning "no such index". Built only for messages. */
export function coordinatePath(prefix: string, i: number, j = -1, k = -1, l = -1): string {
  let path = `${prefix}coordinates`;
  for (const index of [i, j, k, l]) if (index >= 0) path += `[${index}]`;
  return path;
}

/** " in geometries[2].coordinates[1]"-style suffix, or '' for a plain, top-level shape. */
export function locationSuffix(prefix: string, i: number): string {
  if (i >= 0) return ` in ${coordinatePath(prefix, i)}`;
  if (prefix !== '') return ` in ${prefix.slice(0, -1)}`;
  return '';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * What is wrong with a geometry, in words. One wording for every reader of geometries: the
 * object validator below and the byte reader of large GeoJSON features (formats/geojsonCoordinates.ts).
 */
export const geometryProblem = {
  notNumber: (path: string) => `${path} is not a number`,
  notFinite: (path: string, value: number) => `${path} is not a finite number (${String(value)})`,
  notPosition: (path: string) => `${path} is not a position (a list of 2 or 3 numbers)`,
  positionLength: (path: string, length: number) => `${path} has ${plural(length, 'value')}; a position has 2 or 3 numbers`,
  longitude: (lon: number, path: string) => `longitude ${describe(lon)} is outside -180..180 at ${path}`,
  latitude: (lat: number, path: string) => `latitude ${describe(lat)} is outside -90..90 at ${path}`,
  notPositions: (path: string, what: string) => `${path} is not a list of positions (${what})`,
  shortLine: (path: string, length: number) => `${path} has ${plural(length, 'position')}; a line needs at least 2`,
  notRings: (path: string) => `${path} is not a list of polygon rings`,
  noRings: (path: string) => `${path} is an empty list; a polygon needs at least one ring`,
  shortRing: (ring: number, length: number, suffix: string) =>
    `polygon ring ${ring} has ${plural(length, 'position')}; a ring needs at least 4${suffix}`,
  openRing: (ring: number, suffix: string) => `polygon ring ${ring} is not closed (first and last positions differ)${suffix}`,
  notList: (prefix: string) => `${prefix}coordinates is missing or not a list`,
  emptyList: (prefix: string, type: string, item: string) => `${prefix}coordinates is an empty list; a ${type} needs at least one ${item}`,
  isNull: (name: string) => `${name} is null; a map item needs a place (a GeoJSON geometry)`,
  missing: (name: string) => `${name} is missing; a map item needs a place (a GeoJSON geometry)`,
  notObject: (name: string) => `${name} is not a GeoJSON geometry object`,
  noType: (name: string) => `${name} has no "type"`,
  badType: (name: string, type: unknown) => `${name} type ${describe(type)} is not a GeoJSON geometry type`,
  tooDeep: (name: string) => `${name}: GeometryCollections are nested more than ${MAX_COLLECTION_DEPTH} deep`,
  geometriesNotList: (prefix: string) => `${prefix}geometries is missing or not a list`,
  noGeometries: (prefix: string) => `${prefix}geometries is an empty list; a GeometryCollection needs at least one geometry`,
};

/** What each list type of coordinates is called in messages: MultiPoint, and the items of the Multi types. */
export const LIST_ITEMS = { MultiPoint: 'position', MultiLineString: 'line', MultiPolygon: 'polygon' } as const;

function readNumber(value: unknown, prefix: string, i: number, j: number, k: number, c: number): number {
  if (typeof value !== 'number') throw new Problem(geometryProblem.notNumber(coordinatePath(prefix, i, j, k, c)));
  if (!Number.isFinite(value)) throw new Problem(geometryProblem.notFinite(coordinatePath(prefix, i, j, k, c), value));
  return value;
}

/** One position; i/j/k locate it inside `coordinates` (-1 = unused). */
function readPosition(value: unknown, prefix: string, i: number, j: number, k: number): Position {
  if (!Array.isArray(value)) throw new Problem(geometryProblem.notPosition(coordinatePath(prefix, i, j, k)));
  const length = value.length;
  if (length !== 2 && length !== 3) throw new Problem(geometryProblem.positionLength(coordinatePath(prefix, i, j, k), length));
  const lon = readNumber(value[0], prefix, i, j, k, 0);
  const lat = readNumber(value[1], prefix, i, j, k, 1);
  if (lon < -180 || lon > 180) throw new Problem(geometryProblem.longitude(lon, coordinatePath(prefix, i, j, k)));
  if (lat < -90 || lat > 90) throw new Problem(geometryProblem.latitude(lat, coordinatePath(prefix, i, j, k)));
  if (length === 3) return [lon, lat, readNumber(value[2], prefix, i, j, k, 2)];
  return [lon, lat];
}

/** A list of positions (MultiPoint coordinates, a line, a ring); i/j locate the list. */
function readPositions(value: unknown, prefix: string, i: number, j: number, what: string): Position[] {
  if (!Array.isArray(value)) throw new Problem(geometryProblem.notPositions(coordinatePath(prefix, i, j), what));
  const out: Position[] = [];
  // Positions are indexed one level below the list.
  if (i < 0) for (let n = 0; n < value.length; n++) out.push(readPosition(value[n], prefix, n, -1, -1));
  else if (j < 0) for (let n = 0; n < value.length; n++) out.push(readPosition(value[n], prefix, i, n, -1));
  else for (let n = 0; n < value.length; n++) out.push(readPosition(value[n], prefix, i, j, n));
  return out;
}

function readLine(value: unknown, prefix: string, i: number): Position[] {
  const line = readPositions(value, prefix, i, -1, 'a line');
  if (line.length < 2) throw new Problem(geometryProblem.shortLine(coordinatePath(prefix, i), line.length));
  return line;
}

/** A polygon's rings; i is the polygon's index inside a MultiPolygon (-1 for a Polygon). */
function readRings(value: unknown, prefix: string, i: number): Position[][] {
  if (!Array.isArray(value)) throw new Problem(geometryProblem.notRings(coordinatePath(prefix, i)));
  if (value.length === 0) throw new Problem(geometryProblem.noRings(coordinatePath(prefix, i)));
  const rings: Position[][] = [];
  for (let r = 0; r < value.length; r++) {
    const ring = i < 0 ? readPositions(value[r], prefix, r, -1, 'a ring') : readPositions(value[r], prefix, i, r, 'a ring');
    if (ring.length < 4) throw new Problem(geometryProblem.shortRing(r, ring.length, locationSuffix(prefix, i)));
    const first = ring[0] as Position;
    const last = ring[ring.length - 1] as Position;
    if (first.length !== last.length || first.some((coordinate, c) => coordinate !== last[c])) {
      throw new Problem(geometryProblem.openRing(r, locationSuffix(prefix, i)));
    }
    rings.push(ring);
  }
  return rings;
}

function nonEmptyList(value: unknown, prefix: string, type: keyof typeof LIST_ITEMS): unknown[] {
  if (!Array.isArray(value)) throw new Problem(geometryProblem.notList(prefix));
  if (value.length === 0) throw new Problem(geometryProblem.emptyList(prefix, type, LIST_ITEMS[type]));
  return value;
}

/** A `bbox` is kept when it is a list of finite numbers. */
export function readBBox(value: unknown): BBox | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const n of value) if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  return (value as number[]).slice();
}

/** How messages name what is inside a geometry called `name`: "" for a feature's geometry, "geometries[2]." inside a collection. */
export const geometryPrefix = (name: string): string => (name === 'geometry' ? '' : `${name}.`);

/**
 * Validates a geometry and returns a normalised copy. `name` is how messages call it
 * ("geometry" for a feature's geometry, "geometries[2]" inside a collection). Throws Problem.
 */
export function copyGeometry(value: unknown, name = 'geometry', collectionDepth = 0): Geometry {
  const prefix = geometryPrefix(name);
  if (value === null) throw new Problem(geometryProblem.isNull(name));
  if (value === undefined) throw new Problem(geometryProblem.missing(name));
  if (!isObjectRecord(value)) throw new Problem(geometryProblem.notObject(name));
  const type = value.type;
  const bbox = readBBox(value.bbox);
  let geometry: Geometry;
  switch (type) {
    case 'Point':
      geometry = { type, coordinates: readPosition(value.coordinates, prefix, -1, -1, -1) };
      break;
    case 'MultiPoint': {
      const points = nonEmptyList(value.coordinates, prefix, 'MultiPoint');
      geometry = { type, coordinates: readPositions(points, prefix, -1, -1, 'points') };
      break;
    }
    case 'LineString':
      geometry = { type, coordinates: readLine(value.coordinates, prefix, -1) };
      break;
    case 'MultiLineString': {
      const lines = nonEmptyList(value.coordinates, prefix, 'MultiLineString');
      const coordinates: Position[][] = [];
      for (let i = 0; i < lines.length; i++) coordinates.push(readLine(lines[i], prefix, i));
      geometry = { type, coordinates };
      break;
    }
    case 'Polygon':
      geometry = { type, coordinates: readRings(value.coordinates, prefix, -1) };
      break;
    case 'MultiPolygon': {
      const polygons = nonEmptyList(value.coordinates, prefix, 'MultiPolygon');
      const coordinates: Position[][][] = [];
      for (let i = 0; i < polygons.length; i++) coordinates.push(readRings(polygons[i], prefix, i));
      geometry = { type, coordinates };
      break;
    }
    case 'GeometryCollection': {
      const depth = collectionDepth + 1;
      if (depth > MAX_COLLECTION_DEPTH) throw new Problem(geometryProblem.tooDeep(name));
      const members = value.geometries;
      if (!Array.isArray(members)) throw new Problem(geometryProblem.geometriesNotList(prefix));
      if (members.length === 0) throw new Problem(geometryProblem.noGeometries(prefix));
      const geometries: Geometry[] = [];
      for (let i = 0; i < members.length; i++) {
        geometries.push(copyGeometry(members[i], `${prefix}geometries[${i}]`, depth));
      }
      geometry = { type, geometries };
      break;
    }
    default:
      if (type === undefined) throw new Problem(geometryProblem.noType(name));
      throw new Problem(geometryProblem.badType(name, type));
  }
  if (bbox !== undefined) geometry.bbox = bbox;
  return geometry;
}
