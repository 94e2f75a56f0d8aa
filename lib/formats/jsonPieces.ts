// Values of a feature too large to build as objects (a 150,000-point GPS track's coordinates and
// times): they keep their data compactly and write their own JSON text piece by piece, so the
// document file gets the feature without it ever existing as objects or as one long string.
import type { MapFeature } from '../geojson/model.js';

export abstract class JsonPieces {
  /** Writes the value's JSON text in order, in pieces of a few tens of kB. */
  abstract writeJson(write: (text: string) => void): void;
  /** The value as plain data (sinks that keep objects; JSON.stringify calls it). */
  abstract toJSON(): unknown;
}

/** Whether the value is, or holds within `depth` levels of objects and arrays, such a value. */
function holdsPieces(value: unknown, depth: number): boolean {
  if (value instanceof JsonPieces) return true;
  if (depth === 0 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (holdsPieces(value[index], depth - 1)) return true;
    return false;
  }
  for (const key in value) if (holdsPieces((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}

/** Whether a geometry's coordinates (or those of a collection's members) are JsonPieces. */
function geometryHoldsPieces(geometry: unknown): boolean {
  if (geometry === null || typeof geometry !== 'object') return false;
  const { coordinates, geometries } = geometry as { coordinates?: unknown; geometries?: unknown };
  if (coordinates instanceof JsonPieces) return true;
  // A MultiLineString made of long lines (KML): a list of pieces.
  if (Array.isArray(coordinates) && coordinates.length > 0 && coordinates.some((item) => item instanceof JsonPieces)) return true;
  return Array.isArray(geometries) && geometries.some(geometryHoldsPieces);
}

/** Whether a feature holds JsonPieces where parsers put them: the coordinates of its geometry, or a property. */
export const featureHoldsPieces = (feature: MapFeature): boolean =>
  geometryHoldsPieces(feature.geometry) || holdsPieces(feature.properties, 1);

/** How deep writeFeatureJson looks for JsonPieces: feature → geometry → geometries → member → coordinates. */
const FEATURE_DEPTH = 5;

/** A feature's JSON text, piece by piece (see writeJson). */
export const writeFeatureJson = (feature: MapFeature, write: (text: string) => void): void => writeJson(feature, write, FEATURE_DEPTH);

/**
 * Writes a value's JSON text, the same text as JSON.stringify: objects and arrays that hold
 * JsonPieces are written member by member, everything else in one piece.
 */
export function writeJson(value: unknown, write: (text: string) => void, depth = 2): void {
  if (value instanceof JsonPieces) {
    value.writeJson(write);
  } else if (!holdsPieces(value, depth)) {
    write(JSON.stringify(value) ?? 'null');
  } else if (Array.isArray(value)) {
    write('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) write(',');
      writeJson(value[index], write, depth - 1); // a hole is written as null, as JSON.stringify does
    }
    write(']');
  } else {
    write('{');
    let first = true;
    for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      write(`${first ? '' : ','}${JSON.stringify(key)}:`);
      writeJson(member, write, depth - 1);
      first = false;
    }
    write('}');
  }
}

/** The feature as plain objects (JsonPieces replaced by their data). */
export function materialized(feature: MapFeature): MapFeature {
  return featureHoldsPieces(feature) ? (JSON.parse(JSON.stringify(feature)) as MapFeature) : feature;
}
