// KML uploads (file_type "kml"): plain KML text, or a KMZ archive recognised by its zip
// signature. The conversion rules are in xml/kmlConverter.ts, the archive rules in kmz.ts.
import { AppError } from '../errors.js';
import { asInput, type ParserInput } from './input.js';
import { parseKmz } from './kmz.js';
import type { FormatParser, ParseOptions, ParsedFile } from './types.js';
import { decodeXmlChunks } from './xml/decode.js';
import { convertKml } from './xml/kmlConverter.js';
import { binaryKind, isZip } from './xml/sniff.js';

/**
 * Parses a KML or KMZ file. Throws AppError: unsupported_type (another binary format),
 * invalid_file, doctype_not_allowed, too_deep, no_features, too_many_features, and for KMZ
 * invalid_archive, archive_too_large, no_kml_in_archive. A KMZ is parsed asynchronously (its
 * zip reader, yauzl, reads the directory asynchronously), KML text synchronously.
 */
export const parseKml: FormatParser = (file: ParserInput, options?: ParseOptions): ParsedFile | Promise<ParsedFile> => {
  const input = asInput(file);
  if (isZip(input.head)) return parseKmz(input.bytes(), options?.sink);
  const kind = binaryKind(input.head);
  if (kind !== undefined) throw new AppError('unsupported_type', `the file is ${kind}, not a KML or KMZ file`);
  const { document, skipped, name } = convertKml(decodeXmlChunks(input, 'KML file'), undefined, options?.sink);
  return { document, skipped, media: [], name };
};
