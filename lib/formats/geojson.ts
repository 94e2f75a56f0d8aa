// GeoJSON file uploads (map/upload and map/append with file_type "geojson").

import { AppError } from '../errors.js';
import { isGeometryType } from '../geojson/geometry.js';
import { describe } from '../geojson/json-data.js';
import { parseMapDocument, type MapDocument } from '../geojson/model.js';

const REASON_LIMIT = 100;

function invalid(message: string): never {
  throw new AppError('invalid_geojson', message);
}

function shortReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  let reason = raw.length > REASON_LIMIT ? `${raw.slice(0, REASON_LIMIT)}…` : raw;
  // The engine's message may quote a piece of the file; never hand back broken text.
  reason = (reason as unknown as { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\\u0000');
  return reason;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * Parses the bytes of an uploaded GeoJSON file (UTF-8, BOM allowed) into a map document.
 * Accepts a FeatureCollection (groups kept), a single Feature, or a bare geometry (wrapped into
 * one feature). Throws AppError('invalid_geojson').
 */
export function parseGeoJsonFile(bytes: Uint8Array): MapDocument {
  let text: string;
  try {
    // ignoreBOM: false (the default) strips a leading byte order mark.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    invalid('the file is not UTF-8 text');
  }
  if (text.trim() === '') invalid('the file is empty');

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) invalid(`the file is not valid JSON: ${shortReason(error)}`);
    invalid('the file is not valid JSON: it is nested too deeply');
  }

  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(`the file must hold a GeoJSON object (a FeatureCollection, a Feature or a geometry), not ${kindOf(value)}`);
  }
  const type = (value as Record<string, unknown>).type;
  if (type === 'FeatureCollection') return parseMapDocument(value);
  if (type === 'Feature') return parseMapDocument({ type: 'FeatureCollection', features: [value] });
  if (isGeometryType(type)) {
    return parseMapDocument({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: value, properties: {} }],
    });
  }
  if (type === undefined) {
    invalid('the file\'s JSON object has no "type"; expected a FeatureCollection, a Feature or a geometry');
  }
  invalid(`the file's GeoJSON type ${describe(type)} is not a FeatureCollection, a Feature or a geometry`);
}
