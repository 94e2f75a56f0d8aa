// The parser of each import format. Each turns the bytes of a file into a map document and a
// list of items it had to skip; the parse activity runs them.
import type { MapDocument } from '../geojson/model.js';
import type { ImportFileType, SkippedItem } from '../jobContracts.js';
import { parseGeoJsonFile } from './geojson.js';

export type FormatParser = (bytes: Uint8Array) => { document: MapDocument; skipped: SkippedItem[] };

export const PARSERS: Partial<Record<ImportFileType, FormatParser>> = {
  geojson: (bytes) => ({ document: parseGeoJsonFile(bytes), skipped: [] }),
};

export const isImportSupported = (fileType: ImportFileType): boolean => PARSERS[fileType] !== undefined;
