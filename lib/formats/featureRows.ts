// How a feature is stored: one row of map_features (its id, its group, its bounding box, the
// media it uses and its JSON text, exactly as validated), and the line of text that carries the
// row from the parser to the database. The line is PostgreSQL's COPY text format (columns
// separated by tabs, `\N` for none, backslashes doubled), so a parsed file streams into COPY as
// it is: the only thing added on the way is the map's id in front of each line.
import type { Geometry, GroupId, MapFeature, Position } from '../geojson/model.js';
import { isObjectRecord } from '../geojson/json-data.js';
import { JsonPieces } from './jsonPieces.js';

/** [west, south, east, north]: a point's is its position twice. */
export type BBox = [number, number, number, number];

export interface FeatureRow {
  id: number;
  /** The feature's group id as JSON text (`5`, `"a"`), null without a group. */
  group: string | null;
  bbox: BBox;
  /** The uploaded image (`properties.image.id`) and marker (`properties.marker_id`) it uses. */
  image: string | null;
  marker: string | null;
  /** The feature's JSON text. */
  text: string;
}

/** The columns of a row line, in order (db/ copies them into map_features). */
export const ROW_COLUMNS = ['feature_id', 'group_id', 'min_lon', 'min_lat', 'max_lon', 'max_lat', 'image_id', 'marker_id', 'feature'] as const;

/** Coordinates kept compactly (JsonPieces) know their own bounds. */
export interface Bounded {
  bounds(): BBox | null;
}

const isBounded = (value: unknown): value is Bounded => value instanceof JsonPieces && typeof (value as Partial<Bounded>).bounds === 'function';

class Bounds {
  west = Infinity;
  south = Infinity;
  east = -Infinity;
  north = -Infinity;

  add(lon: number, lat: number): void {
    if (lon < this.west) this.west = lon;
    if (lon > this.east) this.east = lon;
    if (lat < this.south) this.south = lat;
    if (lat > this.north) this.north = lat;
  }

  addBox(box: BBox | null): void {
    if (box === null) return;
    this.add(box[0], box[1]);
    this.add(box[2], box[3]);
  }

  /** Positions at any depth of nested lists. */
  addCoordinates(value: unknown): void {
    if (isBounded(value)) {
      this.addBox(value.bounds());
      return;
    }
    if (!Array.isArray(value) || value.length === 0) return;
    if (typeof value[0] === 'number') {
      const [lon, lat] = value as Position;
      this.add(lon, lat);
      return;
    }
    for (const item of value) this.addCoordinates(item);
  }

  addGeometry(geometry: Geometry): void {
    if (geometry.type === 'GeometryCollection') for (const member of geometry.geometries) this.addGeometry(member);
    else this.addCoordinates(geometry.coordinates);
  }

  box(): BBox {
    return this.west === Infinity ? [0, 0, 0, 0] : [this.west, this.south, this.east, this.north];
  }
}

/** The bounding box of a geometry (validated: every position has finite numbers). */
export function geometryBounds(geometry: Geometry): BBox {
  const bounds = new Bounds();
  bounds.addGeometry(geometry);
  return bounds.box();
}

/** The bounding box of positions handed over one by one (compact coordinates). */
export class BoundsBuilder {
  private readonly bounds = new Bounds();

  add(lon: number, lat: number): void {
    this.bounds.add(lon, lat);
  }

  box(): BBox | null {
    return this.bounds.west === Infinity ? null : this.bounds.box();
  }
}

/** The row of a feature; `text` is its JSON text (JSON.stringify of it, or written piece by piece). */
export function rowOf(feature: MapFeature, text: string): FeatureRow {
  const { group, image, marker_id: marker } = feature.properties;
  const imageId = isObjectRecord(image) && typeof image.id === 'string' && image.id !== '' ? image.id : null;
  return {
    id: feature.id,
    group: group === undefined || group === null ? null : JSON.stringify(group as GroupId),
    bbox: geometryBounds(feature.geometry),
    image: imageId,
    marker: typeof marker === 'string' && marker !== '' ? marker : null,
    text,
  };
}

// ---------------------------------------------------------------- lines

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as COPY text writes it. */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

/**
 * The feature's JSON text as COPY text writes it: JSON.stringify never writes a raw tab or line
 * break, so only backslashes need doubling.
 */
export const copyJson = (text: string): string => (text.includes('\\') ? text.replaceAll('\\', '\\\\') : text);

/** The bounding box's four columns. A point's box is its position twice: each number is written out once. */
function boxText([west, south, east, north]: BBox): string {
  const lon = String(west);
  const lat = String(south);
  return west === east && south === north ? `${lon}\t${lat}\t${lon}\t${lat}` : `${lon}\t${lat}\t${east}\t${north}`;
}

/** Everything of a row's line before its JSON text (which goes last, so it can be written in pieces). */
export function rowLineStart(row: Omit<FeatureRow, 'text'>, box = boxText(row.bbox)): string {
  return `${row.id}\t${copyText(row.group)}\t${box}\t${copyText(row.image)}\t${copyText(row.marker)}\t`;
}

/**
 * A point's longitude and latitude as JSON writes them, when the caller has them as text
 * already (a table's cells): turning numbers into text was a fifth of a table import's parse.
 */
export interface PointTexts {
  lon: string;
  lat: string;
}

/**
 * Decimal texts that are exactly what JavaScript writes for their value: at most 15 significant
 * digits (a double tells all of those apart, so the shortest text of the value is this one), no
 * leading `+` or zeros, no trailing zeros, no exponent, and not `-0`; at most three digits before
 * the point (coordinates), and a fraction below 1 not under 1e-6 (written with an exponent).
 */
const SHORTEST_DECIMAL = /^(?:-?[1-9]\d{0,2}(?:\.\d{0,11}[1-9])?|-?0\.(?!0{6})\d{0,14}[1-9]|0)$/;

/** The text JSON.stringify writes for `value`, taken from `text` (the value's source) when that is it already. */
export function numberText(text: unknown, value: number): string {
  return typeof text === 'string' && SHORTEST_DECIMAL.test(text) ? text : String(value);
}

/**
 * The JSON text of a feature built as `{type: 'Feature', id, geometry: {type: 'Point',
 * coordinates: [lon, lat]}, properties}` (in that order, nothing else): JSON.stringify's text,
 * with the coordinates written from `point`.
 */
export const pointFeatureText = (feature: MapFeature, point: PointTexts): string =>
  `{"type":"Feature","id":${feature.id},"geometry":{"type":"Point","coordinates":[${point.lon},${point.lat}]},"properties":${JSON.stringify(feature.properties)}}`;

/** The line of such a point feature's row. */
export const pointRowLine = (row: FeatureRow, point: PointTexts): string =>
  `${rowLineStart(row, `${point.lon}\t${point.lat}\t${point.lon}\t${point.lat}`)}${copyJson(row.text)}\n`;

export const rowLine = (row: FeatureRow): string => `${rowLineStart(row)}${copyJson(row.text)}\n`;

/**
 * The feature's JSON text with another id, when it starts the way the service writes features
 * (`{"type":"Feature","id":<id>,`: JSON.stringify of lib/geojson/model.ts's features); undefined
 * for any other text (the caller parses and writes it again).
 */
export function withFeatureId(text: string, id: number, newId: number): string | undefined {
  const start = `{"type":"Feature","id":${id},`;
  return text.startsWith(start) ? `{"type":"Feature","id":${newId},${text.slice(start.length)}` : undefined;
}

const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

function uncopyText(value: string): string | null {
  if (value === '\\N') return null;
  return value.includes('\\') ? value.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c) : value;
}

/** The row a line (without its line break) carries. */
export function parseRowLine(line: string): FeatureRow {
  const fields = line.split('\t');
  if (fields.length !== ROW_COLUMNS.length) throw new Error(`a feature row has ${fields.length} columns, not ${ROW_COLUMNS.length}`);
  const [id, group, west, south, east, north, image, marker, text] = fields as [string, string, string, string, string, string, string, string, string];
  return {
    id: Number(id),
    group: uncopyText(group),
    bbox: [Number(west), Number(south), Number(east), Number(north)],
    image: uncopyText(image),
    marker: uncopyText(marker),
    text: uncopyText(text)!,
  };
}

/** Joins short lines into pieces of about 64 kB (a stream of one chunk per line costs more than the COPY of it). */
export async function* joinedLines(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  let piece: string[] = [];
  let chars = 0;
  for await (const line of lines) {
    piece.push(line);
    chars += line.length;
    if (chars >= 64 * 1024) {
      yield piece.join('');
      piece = [];
      chars = 0;
    }
  }
  if (piece.length > 0) yield piece.join('');
}

/**
 * The lines of text in pieces (UTF-8 bytes or strings, cut anywhere), without their line breaks.
 * Only new text is searched for a line's end, so a 32 MB line in 64 kB pieces is never searched
 * or joined again and again.
 */
export async function* linesOf(pieces: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<string> {
  let parts: string[] = [];
  const decoder = new TextDecoder();
  const take = function* (text: string): Generator<string> {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      parts.push(text.slice(start, end));
      yield parts.length === 1 ? parts[0]! : parts.join('');
      parts = [];
      start = end + 1;
    }
    if (start < text.length) parts.push(text.slice(start));
  };
  for await (const piece of pieces) yield* take(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
  yield* take(decoder.decode());
  if (parts.length > 0) yield parts.join('');
}
