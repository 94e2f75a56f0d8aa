// A large feature's text (over 1 MB: a detailed coastline, a MultiPolygon of a whole country) read
// for drawing without JSON.parse, whose millions of small arrays take about 30 times the text:
// the geometry's coordinates go into CompactCoordinates (lib/formats, the importer's reader of
// large features), the properties through JSON.parse. The text was validated when stored.
import { CompactCoordinates } from '../formats/compactCoordinates.js';
import { readCoordinates, type CoordinateType } from '../formats/geojsonCoordinates.js';
import { LARGE_FEATURE_BYTES } from '../formats/geojsonLarge.js';
import { JsonBytes } from '../formats/jsonBytes.js';

export { LARGE_FEATURE_BYTES };

export interface LargeFeature {
  type: CoordinateType;
  coordinates: CompactCoordinates;
  properties: Record<string, unknown> | null;
}

const COORDINATE_TYPES: ReadonlySet<string> = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon']);
const READ_LATER: ReadonlySet<string> = new Set(['geometry', 'coordinates', 'geometries']);

/** The feature's geometry and properties; null for what this reader leaves to JSON.parse (a GeometryCollection, no geometry). */
export function readLargeFeature(text: string): LargeFeature | null {
  const json = new JsonBytes(Buffer.from(text, 'utf8'), 0);
  const at = json.space(0);
  if (json.kind(at) !== 'object') return null;
  const members = json.members(at, READ_LATER);
  const geometryAt = members.get('geometry');
  if (geometryAt === undefined || json.kind(geometryAt) !== 'object') return null;
  const geometry = json.members(geometryAt, READ_LATER);
  const typeAt = geometry.get('type');
  const type = typeAt === undefined ? undefined : JSON.parse(json.valueText(typeAt));
  if (typeof type !== 'string' || !COORDINATE_TYPES.has(type)) return null;
  const propertiesAt = members.get('properties');
  const properties = propertiesAt === undefined ? null : (JSON.parse(json.valueText(propertiesAt)) as Record<string, unknown> | null);
  return { type: type as CoordinateType, coordinates: readCoordinates(json, geometry.get('coordinates'), type as CoordinateType, ''), properties };
}
