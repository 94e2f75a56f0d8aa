// Tells an import file's format by its content, for imports that name no file type (the web
// editor's Import: people pick a file, not a format). Never by name or Content-Type:
// - a zip archive by its entries: an OpenDocument spreadsheet (`mimetype`) is ODS, an archive
//   with xl/workbook.xml is XLSX (the spreadsheet reader's own rules, excel.ts), one holding a
//   .kml file is a KMZ, one holding a .shp file a zipped shapefile;
// - a bare .shp by its file code, FlatGeobuf by its magic bytes, an SQLite database as a
//   GeoPackage (its reader refuses one that is not);
// - an OLE2 compound file is XLS (the XLS reader names a Word .doc or an encrypted file itself);
// - XML text by its root element, read with saxes: <kml> is KML, <gpx> is GPX;
// - JSON text (`{` or `[` first) is GeoJSON;
// - any other text is CSV (its reader finds the delimiter and the encoding).
// Anything else — an image, a PDF, another kind of archive or XML, binary data — is refused with
// `unsupported_type`, saying what the file looks like and which formats are taken. The parser of
// the format found then reads the file and refuses what it cannot read with its own clear errors.
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { AppError } from '../errors.js';
import type { GuessedFormat } from '../jobContracts.js';
import { guessUtf16 } from './csv.js';
import { SPREADSHEET_ZIP_LIMITS, zipKind } from './excel.js';
import { asInput, byteOrderMark, type ParserInput } from './input.js';
import { isFlatGeobuf } from './flatgeobuf.js';
import { isSqlite } from './geopackage.js';
import { isShp } from './shapefile.js';
import { looksLikeCfb } from './spreadsheet/cfb.js';
import { binaryKind, isZip } from './xml/sniff.js';
import { ZipArchive } from './zip.js';

export const GUESSED_FORMATS_TEXT = 'KML, KMZ, GPX, GeoJSON, CSV, XLSX, XLS and ODS files, zipped shapefiles, FlatGeobuf files and GeoPackages';

function refuse(what: string): never {
  throw new AppError('unsupported_type', `The file is ${what}; the import takes ${GUESSED_FORMATS_TEXT}.`);
}

/** The format of the file by its content; throws AppError('unsupported_type') for any other kind of file. */
export async function guessFormat(file: ParserInput): Promise<GuessedFormat> {
  const input = asInput(file);
  if (input.size === 0) refuse('empty');
  const head = input.head;
  if (isZip(head)) return zipFormat(input.bytes());
  if (looksLikeCfb(head)) return 'xls';
  if (isShp(head)) return 'shapefile';
  if (isFlatGeobuf(head)) return 'flatgeobuf';
  if (isSqlite(head)) return 'geopackage';
  const binary = binaryKind(head);
  if (binary !== undefined) refuse(binary);
  const text = headText(head);
  if (text === undefined) refuse('binary data of an unknown kind');
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return xmlFormat(start);
  if (start.startsWith('{') || start.startsWith('[')) return 'geojson';
  return 'csv';
}

/** A zip archive: an XLSX or ODS by the spreadsheet reader's rules, else a KMZ when it holds a .kml file. */
async function zipFormat(bytes: Uint8Array): Promise<GuessedFormat> {
  const zip = await ZipArchive.open(bytes, { ...SPREADSHEET_ZIP_LIMITS, label: 'zip', invalidCode: 'invalid_archive' });
  const kind = zipKind(zip);
  if (kind === 'xlsx' || kind === 'ods') return kind;
  if (zip.names().some((name) => name.toLowerCase().endsWith('.kml'))) return 'kmz';
  if (zip.names().some((name) => name.toLowerCase().endsWith('.shp'))) return 'shapefile';
  return refuse(kind); // what the archive is instead ("a Word document (.docx)", "a zip archive that holds no spreadsheet")
}

/** Bytes below 32 that text holds: tab, line feed, form feed, carriage return. */
const TEXT_CONTROLS = new Set([9, 10, 12, 13]);

/**
 * The start of the file as text, or undefined when it does not look like text: UTF-16 by its byte
 * order mark or its zero bytes (as the CSV reader tells it), else any ASCII-compatible encoding,
 * whose structure characters (`<`, `{`, delimiters) are ASCII, so a cut or broken sequence does
 * not matter here. Text has no NUL bytes and hardly any other control characters.
 */
function headText(head: Uint8Array): string | undefined {
  const marked = byteOrderMark(head);
  const utf16 = marked === 'utf-16le' || marked === 'utf-16be' ? marked : guessUtf16(head);
  if (utf16) return new TextDecoder(utf16).decode(head);
  const sample = head.subarray(0, 4096);
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return undefined;
    if ((byte < 32 && !TEXT_CONTROLS.has(byte)) || byte === 127) controls++;
  }
  if (controls > sample.length / 100) return undefined;
  return new TextDecoder('utf-8').decode(head);
}

/** Thrown from saxes' handler to stop at the root element. */
class FoundRoot {
  constructor(readonly name: string) {}
}

/**
 * XML by its root element, found by saxes in the file's first bytes (past the declaration,
 * comments, processing instructions and a DOCTYPE, which the KML and GPX readers refuse later).
 */
function xmlFormat(text: string): GuessedFormat {
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    throw new FoundRoot(tag.name);
  });
  let root: string | undefined;
  try {
    parser.write(text);
  } catch (stop) {
    if (!(stop instanceof FoundRoot)) refuse('text that starts like XML but is not well-formed XML');
    root = stop.name;
  }
  if (root === undefined) refuse('XML text with no root element in its first 64 kB');
  const name = root.slice(root.indexOf(':') + 1);
  if (name === 'kml') return 'kml';
  if (name === 'gpx') return 'gpx';
  if (name.toLowerCase() === 'html') refuse('an HTML page');
  if (name === 'svg') refuse('an SVG image');
  if (name === 'Workbook') refuse('an Excel 2003 XML spreadsheet (save it as .xlsx)');
  return refuse(`an XML document whose root element is <${root.slice(0, 40)}>, neither KML nor GPX`);
}
