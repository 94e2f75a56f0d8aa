// GIS records (a geometry and its attributes, as the Shapefile, FlatGeobuf and GeoPackage
// readers give them) → map features: coordinates reprojected to WGS 84 (./crs.ts) and checked
// like every import's positions; attribute values made JSON data (dates as ISO text, NaN and
// infinities as null, binary values left out); `group` set to the layer's group. A record
// without a geometry, with an empty one or with a position outside longitude/latitude is
// skipped and reported with its record number. More than MAX_FEATURES features are refused.
import { AppError } from '../../errors.js';
import { MAX_FEATURES, type Geometry, type MapFeature, type Position } from '../../geojson/model.js';
import { plural, type SkipList } from '../skipped.js';
import type { FeatureSink } from '../types.js';
import { lonLatProblem } from '../xml/positions.js';
import { PROTOTYPE_KEYS } from '../xml/properties.js';
import type { ToWgs84 } from './crs.js';

/** A geometry as the readers give it (GeoJSON shapes, coordinates in the file's system). */
export interface RawGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: RawGeometry[];
}

/** Thrown while converting one geometry: why the record is skipped. */
class GeometryProblem extends Error {}

/** Properties the map sets itself from a feature's place in the document: attributes of these names get `_2`. */
const RENAMED: ReadonlySet<string> = new Set(['group']);

export class GisFeatureWriter {
  constructor(
    private readonly sink: FeatureSink,
    private readonly skips: SkipList,
    /** "the shapefile", "layer \"roads\"": for messages. */
    private readonly what: string,
  ) {}

  /** Adds one record; `record` is its 1-based number in its layer (for the report). */
  add(geometry: RawGeometry | null | undefined, attributes: Record<string, unknown> | null | undefined, toWgs84: ToWgs84, record: number, group?: number, layer?: string): void {
    const where = layer === undefined ? `record ${record}` : `layer ${JSON.stringify(layer)} record ${record}`;
    if (geometry === null || geometry === undefined) {
      this.skips.add(`${where}: no geometry`);
      return;
    }
    let converted: Geometry;
    try {
      converted = convertGeometry(geometry, toWgs84);
    } catch (error) {
      if (!(error instanceof GeometryProblem)) throw error;
      this.skips.add(`${where}: ${error.message}`);
      return;
    }
    if (this.sink.count >= MAX_FEATURES) {
      throw new AppError('too_many_features', `${this.what} holds more than ${MAX_FEATURES} features; a map holds at most ${MAX_FEATURES} items`);
    }
    const properties: Record<string, unknown> = {};
    if (attributes) {
      for (const [key, value] of Object.entries(attributes)) {
        const data = attributeValue(value);
        if (data === undefined || key === '' || PROTOTYPE_KEYS.has(key)) continue;
        properties[RENAMED.has(key) ? `${key}_2` : key] = data;
      }
    }
    if (group !== undefined) properties.group = group;
    const feature: MapFeature = { type: 'Feature', id: this.sink.count + 1, geometry: converted, properties };
    this.sink.add(feature);
  }
}

/** An attribute value as JSON data; undefined to leave it out. */
export function attributeValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().replace(/T00:00:00\.000Z$/, '');
  return undefined;
}

function position(raw: unknown, toWgs84: ToWgs84): Position {
  if (!Array.isArray(raw) || raw.length < 2) throw new GeometryProblem('a position has fewer than 2 numbers');
  let lon = raw[0] as number;
  let lat = raw[1] as number;
  if (typeof lon !== 'number' || typeof lat !== 'number') throw new GeometryProblem('a coordinate is not a number');
  if (toWgs84 !== null && Number.isFinite(lon) && Number.isFinite(lat)) {
    [lon, lat] = toWgs84(lon, lat);
    // A reprojected coordinate to 1e-9° (0.1 mm): its last digits are the transform's noise.
    lon = Math.round(lon * 1e9) / 1e9;
    lat = Math.round(lat * 1e9) / 1e9;
  }
  const problem = lonLatProblem(lon, lat);
  if (problem !== null) throw new GeometryProblem(toWgs84 === null ? problem : `${problem} once converted to WGS 84`);
  const z = raw[2];
  return typeof z === 'number' && Number.isFinite(z) ? [lon, lat, z] : [lon, lat];
}

function line(raw: unknown, toWgs84: ToWgs84, least: number, what: string): Position[] {
  if (!Array.isArray(raw)) throw new GeometryProblem(`a ${what} is not a list of positions`);
  if (raw.length < least) throw new GeometryProblem(`a ${what} has ${plural(raw.length, 'position')}; at least ${least} are needed`);
  return raw.map((each) => position(each, toWgs84));
}

function polygon(raw: unknown, toWgs84: ToWgs84): Position[][] {
  if (!Array.isArray(raw) || raw.length === 0) throw new GeometryProblem('a polygon has no rings');
  return raw.map((ring) => line(ring, toWgs84, 4, 'polygon ring'));
}

function list(raw: unknown): unknown[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new GeometryProblem('the geometry is empty');
  return raw;
}

/** The geometry in WGS 84, checked; throws GeometryProblem. */
export function convertGeometry(geometry: RawGeometry, toWgs84: ToWgs84): Geometry {
  const coordinates = geometry.coordinates;
  switch (geometry.type) {
    case 'Point':
      if (Array.isArray(coordinates) && coordinates.length === 0) throw new GeometryProblem('the geometry is empty');
      return { type: 'Point', coordinates: position(coordinates, toWgs84) };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: list(coordinates).map((each) => position(each, toWgs84)) };
    case 'LineString':
      return { type: 'LineString', coordinates: line(list(coordinates), toWgs84, 2, 'line') };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: list(coordinates).map((each) => line(each, toWgs84, 2, 'line')) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: polygon(list(coordinates), toWgs84) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: list(coordinates).map((each) => polygon(each, toWgs84)) };
    case 'GeometryCollection': {
      const parts = list(geometry.geometries) as RawGeometry[];
      return { type: 'GeometryCollection', geometries: parts.map((part) => convertGeometry(part, toWgs84)) };
    }
    default:
      throw new GeometryProblem(`a ${geometry.type} geometry cannot be imported`);
  }
}
