// The limits of a table import, whichever reader (CSV, XLSX, XLS, ODS) reads the table.
import { AppError } from '../errors.js';

/** Most rows (header included) one table may have. */
export const MAX_TABLE_ROWS = 1_000_000;
/** Most columns one table may have. */
export const MAX_TABLE_COLUMNS = 1_000;
/** Most groups a table's `group` column may make, and most levels of one path (`Europe/France/Paris`). */
export const MAX_TABLE_GROUPS = 10_000;
export const MAX_GROUP_DEPTH = 20;
/** Longest cell text, in UTF-16 code units. */
export const MAX_CELL_LENGTH = 100_000;

/** Refuses a cell over MAX_CELL_LENGTH (row 1-based, column 0-based), whichever reader read it. */
export function checkCellLength(length: number, rowNumber: number, column: number): void {
  if (length > MAX_CELL_LENGTH) {
    throw new AppError(
      'cell_too_large',
      `row ${rowNumber}: the cell in column ${columnName(column)} holds more than ${MAX_CELL_LENGTH} characters`,
    );
  }
}

/** Column letters of a 0-based column index (0 → A, 26 → AA). */
export function columnName(column: number): string {
  let name = '';
  let n = column + 1;
  while (n > 0) {
    const rest = (n - 1) % 26;
    name = String.fromCharCode(65 + rest) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** Throws sheet_too_large for a non-empty cell past the limits (row 1-based, column 0-based). */
export function checkCellPosition(row: number, column: number): void {
  if (row > MAX_TABLE_ROWS) {
    throw new AppError(
      'sheet_too_large',
      `the first worksheet has a value in row ${row}; at most ${MAX_TABLE_ROWS} rows are imported`,
    );
  }
  if (column >= MAX_TABLE_COLUMNS) {
    throw new AppError(
      'sheet_too_large',
      `the first worksheet has a value in column ${columnName(column)} (row ${row}); at most ${MAX_TABLE_COLUMNS} columns are imported`,
    );
  }
}
