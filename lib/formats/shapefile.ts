// Shapefile uploads (file_type "shapefile"): a zip archive holding one or more .shp files with
// their .dbf (attributes), .prj (coordinate system) and .cpg (attribute encoding), or a bare .shp
// on its own (no attributes). Read with the `shapefile` package after our own checks, which it
// does not make (it reads past damage instead of refusing it):
// - the archive through the imports' zip reader (./zip.ts) with the KMZ's limits: a zip bomb is
//   refused as for KMZ, and only the files of each layer are inflated;
// - the .shp's records must lie inside the file (a truncated .shp is refused, naming the record);
// - the .dbf's header must tell the truth: its record count must fit in the file and match the
//   .shp's (a .dbf that lies about it is refused), and only the records it declares are read;
// - attribute text in the .cpg's encoding, else the .dbf's language driver's, else UTF-8 when
//   the records are valid UTF-8, else Windows-1252;
// - the .prj's WKT reprojected to WGS 84 (./gis/crs.ts); without a .prj the coordinates must be
//   longitude/latitude (the header's bounding box says), else the file is refused (unknown_crs).
// Several .shp files in one archive become one group each, named after the file.
import { isUtf8 } from 'node:buffer';
import * as shapefile from 'shapefile';
import { AppError } from '../errors.js';
import type { MapGroup } from '../geojson/model.js';
import { crsFromWkt, WGS84, type Crs } from './gis/crs.js';
import { GisFeatureWriter, type RawGeometry } from './gis/gisFeatures.js';
import { asInput, type ParserInput } from './input.js';
import { KMZ_LIMITS } from './kmz.js';
import { plural, SkipList } from './skipped.js';
import { FeatureList, type FormatParser, type ParsedFile } from './types.js';
import { binaryKind, isZip } from './xml/sniff.js';
import { quoteEntryName, ZipArchive, type ZipEntry } from './zip.js';

export const SHAPEFILE_ZIP_LIMITS = {
  label: 'zipped shapefile',
  invalidCode: 'invalid_archive',
  maxEntries: KMZ_LIMITS.maxEntries,
  maxInflatedBytes: KMZ_LIMITS.maxInflatedBytes,
  maxRatio: KMZ_LIMITS.maxRatio,
  ratioAllowance: KMZ_LIMITS.ratioAllowance,
} as const;

/** The .shp file code (big-endian 9994) every .shp starts with. */
export function isShp(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 0x27 && head[3] === 0x0a;
}

/** Shape types the reader takes (null, point, polyline, polygon, multipoint, and their Z and M forms). */
const SHAPE_TYPES: ReadonlySet<number> = new Set([0, 1, 3, 5, 8, 11, 13, 15, 18, 21, 23, 25, 28]);

const invalid = (message: string): never => {
  throw new AppError('invalid_file', message);
};

/** Checks a .shp's header and that every record lies inside the file; returns the record count. */
export function checkShp(bytes: Uint8Array, name: string): number {
  const label = `the .shp file ${name}`;
  if (bytes.length < 100 || !isShp(bytes)) invalid(`${label} is not a shapefile (no .shp header)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = view.getInt32(24, false) * 2;
  if (declared > bytes.length) invalid(`${label} is truncated: its header says ${declared} bytes, it has ${bytes.length}`);
  const type = view.getInt32(32, true);
  if (!SHAPE_TYPES.has(type)) invalid(`${label} has shape type ${type}, which is not a shapefile shape type (MultiPatch cannot be imported)`);
  const end = Math.min(declared, bytes.length);
  let at = 100;
  let count = 0;
  while (at < end) {
    if (at + 8 > end) invalid(`${label} is truncated inside the header of record ${count + 1}`);
    const length = view.getInt32(at + 4, false) * 2;
    if (length < 4) invalid(`${label} is damaged: record ${count + 1} has a content length of ${length} bytes`);
    if (at + 8 + length > end) invalid(`${label} is truncated: record ${count + 1} runs past the end of the file`);
    const recordType = view.getInt32(at + 8, true);
    if (recordType !== 0 && recordType !== type) invalid(`${label} is damaged: record ${count + 1} has shape type ${recordType} in a file of type ${type}`);
    at += 8 + length;
    count++;
  }
  return count;
}

interface DbfFacts {
  /** The .dbf cut to the header and the records it declares. */
  bytes: Uint8Array;
  records: number;
  languageDriver: number;
  headerLength: number;
}

/** Checks a .dbf's header against its size and the .shp's record count. */
export function checkDbf(bytes: Uint8Array, name: string, shpRecords: number): DbfFacts {
  const label = `the .dbf file ${name}`;
  if (bytes.length < 33) invalid(`${label} is truncated: it is shorter than a .dbf header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  if (headerLength < 33 || headerLength > bytes.length || recordLength < 1) invalid(`${label} is damaged: its header is not a .dbf header`);
  if (bytes[headerLength - 1] !== 0x0d) invalid(`${label} is damaged: its field list does not end where its header says`);
  const held = Math.floor((bytes.length - headerLength) / recordLength);
  if (records > held) invalid(`${label} is damaged: its header says it holds ${plural(records, 'record')}, the file holds ${held}`);
  if (records !== shpRecords) invalid(`${label} has ${plural(records, 'record')} but its .shp has ${shpRecords}: the files do not belong together`);
  return { bytes: bytes.subarray(0, headerLength + records * recordLength), records, languageDriver: bytes[29] ?? 0, headerLength };
}

/** .dbf language driver ids → encodings (the common ones; the .cpg file is the usual way). */
const LANGUAGE_DRIVERS: Readonly<Record<number, string>> = {
  0x01: 'ibm437',
  0x02: 'ibm850',
  0x03: 'windows-1252',
  0x57: 'windows-1252',
  0x58: 'windows-1252',
  0x59: 'windows-1252',
  0x64: 'ibm852',
  0x65: 'ibm866',
  0x78: 'big5',
  0x7a: 'gbk',
  0x7b: 'shift_jis',
  0x7c: 'windows-874',
  0x7d: 'windows-1255',
  0x7e: 'windows-1256',
  0x87: 'iso-8859-2',
  0xc8: 'windows-1250',
  0xc9: 'windows-1251',
  0xca: 'windows-1254',
  0xcb: 'windows-1253',
  0xcc: 'windows-1257',
};

/** A .cpg's text ("UTF-8", "1252", "CP1251", "ISO 8859-1") as a TextDecoder label, or undefined when unknown. */
export function cpgEncoding(text: string): string | undefined {
  let label = text.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\d{3,5}$/.test(label)) label = label === '65001' ? 'utf-8' : Number(label) >= 1250 && Number(label) <= 1258 ? `windows-${label}` : `ibm${label}`;
  label = label.replace(/^cp(\d+)$/, (_, digits: string) => (Number(digits) >= 1250 && Number(digits) <= 1258 ? `windows-${digits}` : `ibm${digits}`));
  label = label.replace(/^iso(\d)/, 'iso-$1').replace(/^iso-?8859-?(\d+)$/, 'iso-8859-$1').replace(/^utf8$/, 'utf-8');
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

function dbfEncoding(dbf: DbfFacts, cpg: string | undefined, name: string, skips: SkipList): string {
  if (cpg !== undefined) {
    const label = cpgEncoding(cpg);
    if (label !== undefined) return label;
    skips.add(`the .cpg file of ${name} names the encoding ${JSON.stringify(cpg.trim().slice(0, 40))}, which is not known; the attributes were read in the encoding found in the file`);
  }
  const driver = LANGUAGE_DRIVERS[dbf.languageDriver];
  if (driver !== undefined) return driver;
  return isUtf8(dbf.bytes.subarray(dbf.headerLength)) ? 'utf-8' : 'windows-1252';
}

interface Layer {
  name: string;
  shp: Uint8Array;
  dbf?: Uint8Array;
  prj?: string;
  cpg?: string;
}

/** A layer's coordinate system: its .prj, else WGS 84 when the bounding box is in longitude/latitude. */
function layerCrs(layer: Layer, what: string): Crs {
  if (layer.prj !== undefined && layer.prj.trim() !== '') return crsFromWkt(layer.prj, what);
  const view = new DataView(layer.shp.buffer, layer.shp.byteOffset, layer.shp.byteLength);
  const [xmin, ymin, xmax, ymax] = [36, 44, 52, 60].map((at) => view.getFloat64(at, true)) as [number, number, number, number];
  const empty = xmin > xmax; // no shapes
  if (!empty && !(xmin >= -180 && xmax <= 180 && ymin >= -90 && ymax <= 90)) {
    throw new AppError(
      'unknown_crs',
      `${what} has no .prj file naming its coordinate system, and its coordinates (${xmin}…${xmax}, ${ymin}…${ymax}) are not longitude and latitude; add the .prj file to the zip`,
    );
  }
  return WGS84;
}

const stem = (name: string): string => name.replace(/\.[^./]*$/, '');
const baseName = (name: string): string => stem(name.slice(name.lastIndexOf('/') + 1));

function isJunk(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return name.startsWith('__MACOSX/') || base.startsWith('._');
}

/** The layers of a zipped shapefile: each .shp with the files of the same name beside it. */
function archiveLayers(archive: ZipArchive): Layer[] {
  const byLowerName = new Map<string, ZipEntry>();
  for (const entry of archive.entries) if (!isJunk(entry.name)) byLowerName.set(entry.name.toLowerCase(), entry);
  const shps = archive.entries.filter((entry) => !isJunk(entry.name) && entry.name.toLowerCase().endsWith('.shp'));
  if (shps.length === 0) {
    const names = archive.entries.slice(0, 5).map((entry) => quoteEntryName(entry.name));
    const holds =
      names.length === 0
        ? 'it holds no files'
        : `it holds ${names.join(', ')}${archive.entries.length > names.length ? ` and ${archive.entries.length - names.length} more` : ''}`;
    throw new AppError('no_shp_in_archive', `the zip archive holds no .shp file (${holds})`);
  }
  const declared = shps.reduce((sum, entry) => sum + entry.size + (byLowerName.get(`${stem(entry.name).toLowerCase()}.dbf`)?.size ?? 0), 0);
  if (declared > SHAPEFILE_ZIP_LIMITS.maxInflatedBytes) {
    throw new AppError('archive_too_large', `the zipped shapefile's files inflate to ${Math.ceil(declared / (1024 * 1024))} MB; at most ${SHAPEFILE_ZIP_LIMITS.maxInflatedBytes / (1024 * 1024)} MB are allowed`);
  }
  return shps.map((entry) => {
    const sibling = (extension: string): ZipEntry | undefined => byLowerName.get(`${stem(entry.name).toLowerCase()}.${extension}`);
    const text = (extension: string): string | undefined => {
      const found = sibling(extension);
      return found === undefined ? undefined : new TextDecoder('utf-8').decode(archive.readEntry(found));
    };
    const dbf = sibling('dbf');
    return { name: entry.name, shp: archive.readEntry(entry), dbf: dbf && archive.readEntry(dbf), prj: text('prj'), cpg: text('cpg') };
  });
}

/** Reads one layer into the writer. */
async function readLayer(layer: Layer, writer: GisFeatureWriter, skips: SkipList, what: string, group?: number): Promise<void> {
  const label = quoteEntryName(layer.name);
  const records = checkShp(layer.shp, label);
  const dbf = layer.dbf === undefined ? undefined : checkDbf(layer.dbf, quoteEntryName(`${stem(layer.name)}.dbf`), records);
  const encoding = dbf === undefined ? 'utf-8' : dbfEncoding(dbf, layer.cpg, label, skips);
  const crs = layerCrs(layer, what);
  const own = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());
  let source: Awaited<ReturnType<typeof shapefile.open>>;
  try {
    source = await shapefile.open(own(layer.shp), dbf === undefined ? undefined : own(dbf.bytes), { encoding });
  } catch (error) {
    return invalid(`the shapefile ${label} cannot be read: ${(error as Error).message}`);
  }
  const layerName = group === undefined ? undefined : baseName(layer.name);
  for (let record = 1; ; record++) {
    let result: { done: boolean; value?: { geometry: RawGeometry | null; properties: Record<string, unknown> } };
    try {
      result = (await source.read()) as typeof result;
    } catch (error) {
      return invalid(`the shapefile ${label} is damaged at record ${record}: ${(error as Error).message}`);
    }
    if (result.done) break;
    if (record > records) break;
    writer.add(result.value?.geometry, result.value?.properties, crs.toWgs84, record, group, layerName);
  }
}

/**
 * Parses a zipped shapefile (or a bare .shp). Throws AppError: unsupported_type, invalid_archive,
 * archive_too_large, no_shp_in_archive, invalid_file, unknown_crs, no_features, too_many_features.
 */
export const parseShapefile: FormatParser = async (file: ParserInput, options): Promise<ParsedFile> => {
  const input = asInput(file);
  let layers: Layer[];
  if (isZip(input.head)) {
    const archive = await ZipArchive.open(input.bytes(), SHAPEFILE_ZIP_LIMITS);
    layers = archiveLayers(archive);
  } else if (isShp(input.head)) {
    layers = [{ name: 'file.shp', shp: input.bytes() }];
  } else {
    const kind = binaryKind(input.head);
    throw new AppError('unsupported_type', `the file is ${kind ?? 'not a zip archive'}; a shapefile is uploaded as a zip archive of its .shp, .dbf, .prj and .cpg files`);
  }
  const list = options?.sink ? undefined : new FeatureList();
  const sink = options?.sink ?? list!;
  const skips = new SkipList();
  const writer = new GisFeatureWriter(sink, skips, 'the shapefile');
  const groups: MapGroup[] = [];
  for (const layer of layers) {
    let group: number | undefined;
    if (layers.length > 1) {
      group = groups.length + 1;
      groups.push({ id: group, title: baseName(layer.name) || 'Layer' });
    }
    await readLayer(layer, writer, skips, `the shapefile ${quoteEntryName(layer.name)}`, group);
  }
  if (sink.count === 0) {
    throw new AppError('no_features', `the shapefile holds no features with a usable geometry${skips.example()}`);
  }
  return {
    document: { type: 'FeatureCollection', features: list?.features ?? [], groups },
    skipped: skips.result(),
    media: [],
    name: layers.length === 1 && isZip(input.head) ? baseName((layers[0] as Layer).name) : undefined,
  };
};
