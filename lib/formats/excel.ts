// Spreadsheet table imports (map/append with file_type "excel"): XLSX, XLS and ODS, recognised
// by their content, never by a name or a declared type. Only the first worksheet is read (the
// first one that is not hidden). Its rows go through the same conversion as CSV (./table.ts).
//
// The readers are our own: the imports' bounded zip reader (./zip.ts) and a streaming XML
// scanner for XLSX and ODS (lib/formats/spreadsheet/), a compound-file reader and BIFF8 record
// reader for XLS. None of them builds a dense grid or a DOM, so declared dimensions cost
// nothing and memory follows the data.
import { AppError } from '../errors.js';
import { readOds, ODS_MIMETYPE } from './spreadsheet/ods.js';
import { looksLikeCfb } from './spreadsheet/cfb.js';
import { readXls } from './spreadsheet/xls.js';
import { readXlsx } from './spreadsheet/xlsx.js';
import { TableBuilder } from './table.js';
import { asInput, type ParserInput } from './input.js';
import type { FormatParser, ParsedFile, ParseOptions } from './types.js';
import { binaryKind, isZip } from './xml/sniff.js';
import { ZipArchive, type ZipLimits } from './zip.js';

export type SpreadsheetKind = 'xlsx' | 'ods' | 'xls';

/**
 * Limits of an XLSX or ODS archive. No ratio cap: the XML parts of a spreadsheet can compress
 * far beyond a KMZ's 200:1 (long runs of the same markup), so the inflated-bytes budget alone
 * bounds them.
 */
export const SPREADSHEET_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxInflatedBytes: 256 * 1024 * 1024,
};

/** What a file that is not a spreadsheet looks like, for the unsupported_type message. */
export function describeContent(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'an empty file';
  const binary = binaryKind(bytes);
  if (binary !== undefined) return binary;
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) {
    if (/<kml[\s>]/i.test(head)) return 'a KML document';
    if (/<gpx[\s>]/i.test(head)) return 'a GPX document';
    if (/^<(!doctype\s+)?html/i.test(head)) return 'an HTML page';
    if (/urn:schemas-microsoft-com:office:spreadsheet/i.test(head) || /<Workbook[\s>]/.test(head)) {
      return 'an Excel 2003 XML spreadsheet (not supported: save it as .xlsx)';
    }
    return 'an XML document';
  }
  if (head.startsWith('{') || head.startsWith('[')) return 'JSON text (GeoJSON is imported with file_type "geojson")';
  let printable = 0;
  const sample = bytes.subarray(0, 512);
  for (const byte of sample) if (byte === 9 || byte === 10 || byte === 13 || (byte >= 32 && byte !== 127)) printable++;
  if (printable === sample.length) return 'text (a CSV file is imported with file_type "csv")';
  return 'binary data of an unknown kind';
}

/** The longest `mimetype` entry read (OpenDocument names are under 80 bytes). */
const MAX_MIMETYPE_BYTES = 256;

/** The spreadsheet kind of a zip archive, or a description of what the archive is instead. */
export function zipKind(zip: ZipArchive): SpreadsheetKind | string {
  const mimetypeEntry = zip.entry('mimetype');
  // A mimetype is a short name: a large entry is not read (a 260 kB upload inflating one to
  // 250 MB took 1.4 s and 750 MB only to be compared with 46 characters).
  if (mimetypeEntry !== undefined && mimetypeEntry.size <= MAX_MIMETYPE_BYTES) {
    const mimetype = new TextDecoder('utf-8').decode(zip.read('mimetype')).trim();
    if (mimetype === ODS_MIMETYPE) return 'ods';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.')) {
      return `an OpenDocument file of another kind (${mimetype}), not a spreadsheet`;
    }
  }
  if (zip.has('xl/workbook.xml') || zip.has('xl/workbook.bin')) {
    if (zip.has('xl/workbook.bin')) return 'an Excel binary workbook (.xlsb), which is not supported: save it as .xlsx';
    return 'xlsx';
  }
  if (zip.has('word/document.xml')) return 'a Word document (.docx), not a spreadsheet';
  if (zip.has('ppt/presentation.xml')) return 'a PowerPoint presentation (.pptx), not a spreadsheet';
  if (zip.names().some((name) => name.toLowerCase().endsWith('.kml'))) return 'a KMZ archive (import it with file_type "kml")';
  return 'a zip archive that holds no spreadsheet';
}

export interface ExcelParseOptions extends ParseOptions {
  /** Most bytes an XLSX/ODS archive may inflate to (tests lower it). */
  inflateBudget?: number;
}

/** Parses the first worksheet of an XLSX, XLS or ODS file into a map document. */
export async function parseSpreadsheet(bytes: Uint8Array, options: ExcelParseOptions): Promise<ParsedFile & { kind: SpreadsheetKind }> {
  try {
    return await readSpreadsheet(bytes, options);
  } catch (error) {
    throw asSpreadsheetError(error);
  }
}

async function readSpreadsheet(bytes: Uint8Array, options: ExcelParseOptions): Promise<ParsedFile & { kind: SpreadsheetKind }> {
  const builder = new TableBuilder(options);
  let kind: SpreadsheetKind;
  if (looksLikeCfb(bytes)) {
    kind = 'xls';
    readXls(bytes, builder);
  } else if (isZip(bytes)) {
    // An XLSX or ODS; the archive type decides which.
    const zip = await ZipArchive.open(bytes, {
      ...SPREADSHEET_ZIP_LIMITS,
      maxInflatedBytes: options.inflateBudget ?? SPREADSHEET_ZIP_LIMITS.maxInflatedBytes,
      label: 'spreadsheet',
      invalidCode: 'invalid_spreadsheet',
      encryptedCode: 'encrypted_spreadsheet',
    });
    const found = zipKind(zip);
    if (found === 'xlsx') {
      kind = 'xlsx';
      await readXlsx(zip, builder);
    } else if (found === 'ods') {
      kind = 'ods';
      await readOds(zip, builder);
    } else {
      throw new AppError('unsupported_type', `the file is ${found}; spreadsheets are imported from XLSX, XLS and ODS files`);
    }
  } else {
    throw new AppError(
      'unsupported_type',
      `the file is ${describeContent(bytes)}; spreadsheets are imported from XLSX, XLS and ODS files`,
    );
  }
  return { ...builder.finish(), kind };
}

/**
 * Spreadsheet import (file_type "excel"): XLSX (a zip with xl/workbook.xml), ODS (a zip whose
 * `mimetype` names an OpenDocument spreadsheet) or XLS (a BIFF8 workbook in an OLE2 compound
 * file), recognised by content. The first visible worksheet is imported.
 */
export const parseExcel: FormatParser = async (input: ParserInput, options: ParseOptions): Promise<ParsedFile> => {
  const { document, skipped, media } = await parseSpreadsheet(asInput(input).bytes(), options);
  return { document, skipped, media };
};

/** Any failure of the readers that is not one of our errors (a bug, or a RangeError) becomes one. */
function asSpreadsheetError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const detail = error instanceof RangeError ? 'it is too large or damaged' : 'it is damaged';
  return new AppError('invalid_spreadsheet', `the spreadsheet could not be read: ${detail}`);
}
