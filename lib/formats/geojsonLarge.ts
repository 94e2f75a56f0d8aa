// Large GeoJSON features (a detailed country, a 500,000-ring MultiPolygon) read from their bytes
// instead of JSON.parse: the geometry's coordinates go straight into CompactCoordinates, every
// other member (properties, ids, bbox) through JSON.parse as usual, and the feature passes the
// same checks with the same words as any other (featureFrom, geometryProblem). A 19 MB
// MultiPolygon took 600 MB as objects; read this way it takes about twice the file.
import { geometryPrefix, geometryProblem, isGeometryType, MAX_COLLECTION_DEPTH, readBBox } from '../geojson/geometry.js';
import { failInvalid, Problem } from '../geojson/json-data.js';
import { FeatureIds, featureFrom, type Geometry, type GroupId, type MapFeature } from '../geojson/model.js';
import type { CompactCoordinates } from './compactCoordinates.js';
import { readCoordinates, type CoordinateType } from './geojsonCoordinates.js';
import { JsonBytes, JsonSyntaxError } from './jsonBytes.js';

/** Features longer than this (bytes of text) are read by this reader. */
export const LARGE_FEATURE_BYTES = 1024 * 1024;

/** A geometry whose coordinates are CompactCoordinates (written out piece by piece). */
type CompactGeometry = Geometry & { coordinates?: CompactCoordinates };

const valueOf = (json: JsonBytes, at: number | undefined): unknown => (at === undefined ? undefined : JSON.parse(json.valueText(at)));

/** Members whose readers check them (so finding their end only counts brackets). */
const READ_BY_FEATURE = new Set(['geometry']);
const READ_BY_GEOMETRY = new Set(['coordinates', 'geometries']);
/** A file that is one Feature or one bare geometry. */
const READ_BY_GEOMETRY_OR_FEATURE = new Set([...READ_BY_FEATURE, ...READ_BY_GEOMETRY]);

/** The geometry whose value starts at `at`, checked as copyGeometry checks one. Throws Problem. */
function geometryAt(json: JsonBytes, at: number | undefined, name: string, collectionDepth: number): CompactGeometry {
  const prefix = geometryPrefix(name);
  if (at === undefined) throw new Problem(geometryProblem.missing(name));
  if (json.kind(at) !== 'object') {
    if (valueOf(json, at) === null) throw new Problem(geometryProblem.isNull(name));
    throw new Problem(geometryProblem.notObject(name));
  }
  const members = json.members(at, READ_BY_GEOMETRY);
  json.read(at); // its members are checked one by one (or left to their readers)
  const type = valueOf(json, members.get('type'));
  const bbox = readBBox(valueOf(json, members.get('bbox')));
  let geometry: CompactGeometry;
  if (type === 'GeometryCollection') {
    const depth = collectionDepth + 1;
    if (depth > MAX_COLLECTION_DEPTH) throw new Problem(geometryProblem.tooDeep(name));
    const list = members.get('geometries');
    if (list === undefined || json.kind(list) !== 'list') throw new Problem(geometryProblem.geometriesNotList(prefix));
    json.read(list);
    const geometries: Geometry[] = [];
    json.items(list, (start, index) => {
      geometries.push(geometryAt(json, start, `${prefix}geometries[${index}]`, depth));
      return json.skip(start);
    });
    if (geometries.length === 0) throw new Problem(geometryProblem.noGeometries(prefix));
    geometry = { type, geometries };
  } else if (isGeometryType(type)) {
    geometry = { type, coordinates: readCoordinates(json, members.get('coordinates'), type as CoordinateType, prefix) } as CompactGeometry;
  } else if (type === undefined) {
    throw new Problem(geometryProblem.noType(name));
  } else {
    throw new Problem(geometryProblem.badType(name, type));
  }
  if (bbox !== undefined) geometry.bbox = bbox;
  return geometry;
}

/** The bytes, for reading (each part is checked by its reader; the structure around them by the scan). */
function jsonOf(bytes: Uint8Array, base: number, where: string): { json: JsonBytes; read: <T>(work: () => T) => T } {
  const json = new JsonBytes(bytes, base);
  const read = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof JsonSyntaxError) failInvalid(`the file is not valid JSON: ${error.message}${where}`);
      throw error;
    }
  };
  return { json, read };
}

/**
 * A feature of a FeatureCollection, from its bytes (`base`: where they start in the file).
 * `id` is its parsed id (-1: none yet). Throws AppError('invalid_geojson') as parseFeatureAt does.
 */
export function parseLargeFeature(bytes: Uint8Array, base: number, index: number, id: number, groupIds: ReadonlySet<GroupId>): MapFeature {
  const { json, read } = jsonOf(bytes, base, ` (in feature index ${index})`);
  return read(() => {
    const at = json.space(0);
    if (json.kind(at) !== 'object') failInvalid(`feature index ${index} is not an object`);
    const members = json.members(at, READ_BY_FEATURE);
    const feature = featureFrom(
      {
        type: valueOf(json, members.get('type')),
        geometry: () => geometryAt(json, members.get('geometry'), 'geometry', 0),
        properties: valueOf(json, members.get('properties')),
      },
      index,
      id,
      groupIds,
    );
    json.checkUnread();
    return feature;
  });
}

/**
 * A whole file that is one large Feature or one large bare geometry (then the only feature of
 * its map, as parseMapDocument would make it). Returns null for anything else (parsed whole).
 */
export function parseLargeSingleFeature(bytes: Uint8Array): MapFeature | null {
  const { json, read } = jsonOf(bytes, 0, '');
  return read(() => readSingleFeature(json));
}

function readSingleFeature(json: JsonBytes): MapFeature | null {
  const at = json.space(0);
  if (json.kind(at) !== 'object') return null;
  const members = json.members(at, READ_BY_GEOMETRY_OR_FEATURE);
  const type = valueOf(json, members.get('type'));
  if (type !== 'Feature' && !isGeometryType(type)) return null;
  const ids = new FeatureIds();
  const id = ids.add(type === 'Feature' ? valueOf(json, members.get('id')) : undefined, 0);
  const parts =
    type === 'Feature'
      ? { type, geometry: () => geometryAt(json, members.get('geometry'), 'geometry', 0), properties: valueOf(json, members.get('properties')) }
      : { type: 'Feature', geometry: () => geometryAt(json, at, 'geometry', 0), properties: {} };
  const feature = featureFrom(parts, 0, id, new Set<GroupId>());
  if (feature.id < 0) feature.id = ids.take();
  json.checkUnread();
  return feature;
}
