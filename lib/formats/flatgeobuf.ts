// FlatGeobuf uploads (file_type "flatgeobuf", .fgb). Read with the `flatgeobuf` package after
// our own checks of the file's structure, which it does not make (it reads whatever bytes a
// size says): the magic bytes, a header that fits in the file, a spatial index whose size fits,
// every feature's size prefix inside the file, and a declared feature count that matches the
// features found. The header's coordinate system (EPSG code, or WKT) is converted to WGS 84
// (./gis/crs.ts); a file that declares none must be in longitude/latitude (its envelope says).
import * as flatgeobuf from 'flatgeobuf/lib/mjs/geojson.js';
import { ByteBuffer } from 'flatbuffers';
import { fromByteBuffer, type HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import { calcTreeSize } from 'flatgeobuf/lib/mjs/packedrtree.js';
import { AppError } from '../errors.js';
import { crsFromEpsg, crsFromWkt, WGS84, type Crs } from './gis/crs.js';
import { GisFeatureWriter, type RawGeometry } from './gis/gisFeatures.js';
import { asInput, type ParserInput } from './input.js';
import { plural, SkipList } from './skipped.js';
import { FeatureList, type FormatParser, type ParsedFile } from './types.js';
import { binaryKind } from './xml/sniff.js';

/** `fgb` and the major version 3 that every FlatGeobuf file starts with. */
export function isFlatGeobuf(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x66 && head[1] === 0x67 && head[2] === 0x62 && head[3] === 0x03;
}

const invalid = (message: string): never => {
  throw new AppError('invalid_file', `the FlatGeobuf file ${message}`);
};

/** Checks the structure; returns the number of features and the header's facts. */
function checkStructure(bytes: Uint8Array): { count: number; header: HeaderMeta } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) invalid('is truncated: it is shorter than a header');
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > bytes.length) invalid(`is truncated: its header says ${headerLength} bytes, the file ends before`);
  let header: HeaderMeta;
  try {
    const buffer = new ByteBuffer(bytes.subarray(0, 12 + headerLength));
    buffer.setPosition(8);
    header = fromByteBuffer(buffer);
  } catch {
    return invalid('has a header that cannot be read');
  }
  let offset = 12 + headerLength;
  if (header.indexNodeSize > 0 && header.featuresCount > 0) {
    let treeSize: number;
    try {
      treeSize = calcTreeSize(header.featuresCount, header.indexNodeSize);
    } catch {
      return invalid('has a spatial index that cannot be read');
    }
    if (offset + treeSize > bytes.length) invalid(`is truncated: its spatial index for ${plural(header.featuresCount, 'feature')} runs past the end of the file`);
    offset += treeSize;
  }
  let count = 0;
  while (offset < bytes.length) {
    if (offset + 4 > bytes.length) invalid(`is truncated inside the size of feature ${count + 1}`);
    const length = view.getUint32(offset, true);
    if (offset + 4 + length > bytes.length) invalid(`is truncated: feature ${count + 1} runs past the end of the file`);
    offset += 4 + length;
    count++;
  }
  if (header.featuresCount !== 0 && header.featuresCount !== count) {
    invalid(`is damaged: its header says it holds ${plural(header.featuresCount, 'feature')}, the file holds ${count}`);
  }
  return { count, header };
}

function fileCrs(header: HeaderMeta): Crs {
  const crs = header.crs;
  const what = 'the FlatGeobuf file';
  if (crs !== null) {
    if (crs.code_string !== null && /^(OGC:)?CRS:?84$/i.test(crs.code_string)) return WGS84;
    if ((crs.org === null || crs.org.toUpperCase() === 'EPSG') && crs.code > 0) return crsFromEpsg(crs.code, what);
    if (crs.wkt !== null && crs.wkt.trim() !== '') return crsFromWkt(crs.wkt, what);
    if (crs.code > 0) return crsFromEpsg(crs.code, what, `${crs.org ?? 'EPSG'}:${crs.code}`);
  }
  const envelope = header.envelope;
  if (envelope !== null && envelope.length >= 4) {
    const [xmin, ymin, xmax, ymax] = envelope as unknown as [number, number, number, number];
    if (!(xmin >= -180 && xmax <= 180 && ymin >= -90 && ymax <= 90)) {
      throw new AppError('unknown_crs', `${what} declares no coordinate system, and its coordinates (${xmin}…${xmax}, ${ymin}…${ymax}) are not longitude and latitude`);
    }
  }
  return WGS84;
}

/**
 * Parses a FlatGeobuf file. Throws AppError: unsupported_type, invalid_file, unknown_crs,
 * no_features, too_many_features.
 */
export const parseFlatGeobuf: FormatParser = async (file: ParserInput, options): Promise<ParsedFile> => {
  const input = asInput(file);
  if (!isFlatGeobuf(input.head)) {
    throw new AppError('unsupported_type', `the file is ${binaryKind(input.head) ?? 'not a FlatGeobuf file (it does not start with "fgb" and version 3)'}`);
  }
  const bytes = input.bytes();
  const { header } = checkStructure(bytes);
  const crs = fileCrs(header);
  const list = options?.sink ? undefined : new FeatureList();
  const sink = options?.sink ?? list!;
  const skips = new SkipList();
  const writer = new GisFeatureWriter(sink, skips, 'the FlatGeobuf file');
  let record = 0;
  try {
    for await (const feature of flatgeobuf.deserialize(bytes)) {
      record++;
      writer.add(feature.geometry as RawGeometry | null, feature.properties as Record<string, unknown> | undefined, crs.toWgs84, record);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    return invalid(`is damaged at feature ${record + 1}: ${(error as Error).message}`);
  }
  if (sink.count === 0) throw new AppError('no_features', `the FlatGeobuf file holds no features with a usable geometry${skips.example()}`);
  return {
    document: { type: 'FeatureCollection', features: list?.features ?? [], groups: [] },
    skipped: skips.result(),
    media: [],
    name: header.title ?? undefined,
  };
};
