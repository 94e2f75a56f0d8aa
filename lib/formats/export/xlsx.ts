// A map's points as an XLSX workbook (the XLSX download): the table the CSV download writes
// (./table.ts: the same columns, rows and neutralised formulas) on one worksheet, written by
// exceljs's streaming writer, which turns each row into XML as it is committed instead of keeping
// a cell object per value until the end. The header row is bold and frozen; numbers (lat, lon,
// numeric properties) are number cells, and text is inline text (`inlineStr`), never a formula.
//
// Measured on a 50,000-point map (bench/xlsxDownload.ts, numbers in the README's dependency
// table): exceljs's shared-strings table keeps every distinct text as an object key until the
// end, and took the peak to 408–418 MB above idle against 134–144 MB with inline text (making the
// table included); a style worked out anew for every cell took about a third more CPU, so the
// data cells share one style object (exceljs caches a style by its object, as its README intends).
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { PointTable } from './table.js';

/** The worksheet's name (Excel allows 31 characters and no []:*?/\, so not the map's title). */
const SHEET_NAME = 'Points';

/** Column widths in characters, by the table's column names; other columns get DEFAULT_WIDTH. */
const WIDTHS: Record<string, number> = { lat: 11, lon: 11, title: 30, description: 40, group: 20, url: 30, color: 9, visible: 8, service_image_url: 40 };
const DEFAULT_WIDTH = 14;

/**
 * Rows written between two turns of the event loop: the writer is synchronous JavaScript, and a
 * turn lets the zip stream compress what is written so far and other requests be served.
 */
const ROWS_A_TURN = 2_000;

/** The one style of every data cell (General, the default font). */
const PLAIN: Partial<ExcelJS.Style> = {};
const BOLD: Partial<ExcelJS.Font> = { bold: true };

/** Characters XML 1.0 cannot carry, and carriage returns (XML readers turn them into line feeds). */
// eslint-disable-next-line no-control-regex
const NOT_IN_XML = /[\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF]/g;
/** Text that already reads like one of OOXML's `_xHHHH_` escapes. */
const LOOKS_ESCAPED = /_x[0-9A-Fa-f]{4}_/g;

const hex4 = (code: number): string => code.toString(16).toUpperCase().padStart(4, '0');

/**
 * Text as OOXML stores it: characters XML cannot carry as `_xHHHH_` (exceljs would drop them),
 * and text that already reads like such an escape with its underscore escaped (`_x005F_`), so
 * Excel and our import (decodeOoxmlEscapes) read back exactly the text written.
 */
export function ooxmlText(text: string): string {
  if (text.indexOf('_x') !== -1) text = text.replace(LOOKS_ESCAPED, (escape) => `_x005F${escape}`);
  return text.replace(NOT_IN_XML, (char) => `_x${hex4(char.charCodeAt(0))}_`);
}

/**
 * One cell as exceljs takes it: a number, an empty cell, or text as a single run of rich text,
 * which exceljs writes as an inline string (plain strings without the shared-strings table
 * would be `t="str"`, the type of a formula's result).
 */
function cellValue(cell: string | number): ExcelJS.CellValue {
  if (typeof cell === 'number') return cell;
  return cell === '' ? null : { richText: [{ text: ooxmlText(cell) }] };
}

/** The table as the bytes of an XLSX file. */
export async function xlsxOfTable(table: PointTable): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    output.on('end', resolve);
    output.on('error', reject);
  });

  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(SHEET_NAME, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  sheet.columns = table.header.map((name) => ({ width: WIDTHS[name] ?? DEFAULT_WIDTH }));
  const header = sheet.addRow(table.header.map(cellValue));
  header.font = BOLD;
  header.commit();
  for (let index = 0; index < table.rows.length; index++) {
    const row = sheet.addRow((table.rows[index] as (string | number)[]).map(cellValue));
    row.eachCell((cell) => {
      cell.style = PLAIN;
    });
    row.commit();
    if (index % ROWS_A_TURN === ROWS_A_TURN - 1) await nextTurn();
  }
  sheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}
