// GeoJSON file uploads (map/upload and map/append with file_type "geojson").

import { AppError } from '../errors.js';
import { isGeometryType } from '../geojson/geometry.js';
import { describe, setOwn, shorten } from '../geojson/json-data.js';
import { FeatureIds, MAX_FEATURES, parseDocumentHead, parseFeatureAt, parseMapDocument, type MapDocument, type MapFeature } from '../geojson/model.js';
import { LARGE_FEATURE_BYTES, parseLargeFeature, parseLargeSingleFeature } from './geojsonLarge.js';
import { FileWindow, ScanFailure, scanFeatureCollection, type ScannedCollection } from './geojsonScan.js';
import { asInput, byteOrderMark, isUtf8File, type FileInput, type ParserInput } from './input.js';
import { engineMessageAtByte, placeInFile } from './jsonLocation.js';
import { FeatureList, type FeatureSink } from './types.js';

const REASON_LIMIT = 100;

function invalid(message: string): never {
  throw new AppError('invalid_geojson', message);
}

function shortReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  // The engine's message may quote a piece of the file; never hand back broken text.
  return (shorten(raw, REASON_LIMIT) as unknown as { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\\u0000');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * Parses an uploaded GeoJSON file (UTF-8, BOM allowed) into a map document. Accepts a
 * FeatureCollection (groups kept), a single Feature, or a bare geometry (wrapped into one
 * feature). Throws AppError('invalid_geojson'). With a sink, the features go there one by one as
 * they are parsed and the document comes back without them. A FeatureCollection is read through
 * a window (./geojsonScan.ts); anything else, and a file whose structure is broken (for the
 * engine's message), is parsed whole.
 */
export function parseGeoJsonFile(file: ParserInput, sink?: FeatureSink, windowBytes?: number): MapDocument {
  const input = asInput(file);
  try {
    return parseInput(input, sink, windowBytes);
  } catch (error) {
    // A syntax error's place, as the parsers give it (a byte), said as line and column.
    if (error instanceof AppError && error.code === 'invalid_geojson' && / at byte \d+/.test(error.message)) invalid(placeInFile(error.message, input));
    throw error;
  }
}

function parseInput(input: FileInput, sink: FeatureSink | undefined, windowBytes: number | undefined): MapDocument {
  if (!isUtf8File(input)) invalid('the file is not UTF-8 text');
  const start = byteOrderMark(input.head) === 'utf-8' ? 3 : 0;
  const window = new FileWindow(input, windowBytes);
  const collection = scanOrNull(window, start);
  if (collection !== null) {
    const list = sink ? undefined : new FeatureList();
    const streamed = streamCollection(window, collection, sink ?? list!);
    if (streamed !== null) return { ...streamed, features: list?.features ?? [] };
    // A large single Feature or bare geometry: read from its bytes, never as objects.
    if (input.size - start > LARGE_FEATURE_BYTES) {
      const feature = parseLargeSingleFeature(window.view(start, input.size));
      if (feature !== null) {
        const kept = sink ?? new FeatureList();
        kept.add(feature);
        window.release();
        return { type: 'FeatureCollection', features: kept instanceof FeatureList ? kept.features : [], groups: [] };
      }
    }
  }
  window.release();
  const whole = input.bytes();
  const document = parseWhole(Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString('utf8', start), start);
  if (sink) {
    for (const feature of document.features) sink.add(feature);
    document.features = [];
  }
  return document;
}

/** The file cut into pieces, or null when it is no object or its structure is broken (then it is parsed whole, for the message). */
function scanOrNull(window: FileWindow, start: number): ScannedCollection | null {
  try {
    return scanFeatureCollection(window, start);
  } catch (error) {
    if (error instanceof ScanFailure) return null;
    throw error;
  }
}

/**
 * A FeatureCollection, one feature at a time: the top level (groups and other keys) is
 * checked first, then each feature is parsed, checked and handed to the sink. Returns null
 * when the top level is not a FeatureCollection with a features list (parsed whole instead).
 */
function streamCollection(window: FileWindow, { members, featuresList, featureSpans, featureIds }: ScannedCollection, sink: FeatureSink): MapDocument | null {
  // Anything but a FeatureCollection with a features list is parsed whole: say so before parsing
  // the other members (a single Feature's geometry may be most of the file).
  const type = members.get('type');
  if (!featuresList || type === undefined) return null;
  try {
    if (JSON.parse(window.text(type[0], type[1])) !== 'FeatureCollection') return null;
  } catch {
    return null;
  }
  const top: Record<string, unknown> = {};
  for (const [key, [start, end]] of members) {
    let value: unknown;
    try {
      value = JSON.parse(window.text(start, end));
    } catch {
      return null;
    }
    setOwn(top, key, value);
  }
  const count = featureIds.length;
  if (count > MAX_FEATURES) invalid(`the document has ${count} features; at most ${MAX_FEATURES} are allowed`);
  const { head, groupIds } = parseDocumentHead(top);
  const ids = new FeatureIds();
  const parsedIds = featureIds.map((raw, index) => ids.add(raw, index));
  for (let index = 0; index < count; index++) {
    const start = featureSpans[2 * index] as number;
    const end = featureSpans[2 * index + 1] as number;
    let feature: MapFeature;
    if (end - start > LARGE_FEATURE_BYTES) {
      // Its geometry is read from the bytes into compact storage, never as objects; the window,
      // grown to the feature's length, is let go at once.
      feature = parseLargeFeature(window.view(start, end), start, index, parsedIds[index] as number, groupIds);
      window.release();
    } else {
      let input: unknown;
      const text = window.text(start, end);
      try {
        input = JSON.parse(text);
      } catch (error) {
        const raw = String((error as Error).message);
        const placed = engineMessageAtByte(raw, text, start);
        // The engine does not always say where (`Unexpected token '}', "…" is not valid JSON`): then where the feature begins.
        invalid(`the file is not valid JSON: ${shortReason(placed)} (in feature index ${index}${placed === raw ? `, which begins at byte ${start}` : ''})`);
      }
      feature = parseFeatureAt(input, index, parsedIds[index] as number, groupIds);
    }
    if (feature.id < 0) feature.id = ids.take();
    sink.add(feature);
  }
  const document: MapDocument = { type: 'FeatureCollection', features: [], groups: head.groups };
  for (const key of Object.keys(head)) if (key !== 'type' && key !== 'groups') setOwn(document, key, head[key]);
  return document;
}

/** `base`: where the text begins in the file (after a byte order mark). */
function parseWhole(text: string, base: number): MapDocument {
  if (text.trim() === '') invalid('the file is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) invalid(`the file is not valid JSON: ${shortReason(engineMessageAtByte(error.message, text, base))}`);
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
