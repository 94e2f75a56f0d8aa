// The records of CSV text: the delimiter told from the header line, and papaparse's parser
// (RFC 4180: fields in double quotes may hold delimiters, line ends and doubled quotes) reading
// the text window by window as it is decoded, with our limits checked on every record and every
// problem reported with its row and line.
//
// papaparse reads one kind of line end; files mix \r\n, \n and a lone \r, so each window's line
// ends become \n before it is read (inside quoted fields too: a cell's line breaks are \n).
import Papa from 'papaparse';
import { AppError } from '../errors.js';
import { MAX_CELL_LENGTH, MAX_TABLE_COLUMNS, MAX_TABLE_ROWS } from './tableLimits.js';

// ---------------------------------------------------------------- delimiter

const DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

const LAT_NAMES = new Set(['lat', 'latitude']);
const LON_NAMES = new Set(['lon', 'long', 'lng', 'longitude']);

/** The first non-empty line of the text (quotes respected), at most 64 kB of it. */
function headerLine(text: string): string {
  let start = 0;
  while (start < text.length && (text[start] === '\n' || text[start] === '\r')) start++;
  const limit = Math.min(text.length, start + 65_536);
  let inQuotes = false;
  for (let index = start; index < limit; index++) {
    const char = text.charCodeAt(index);
    if (char === 34) inQuotes = !inQuotes;
    else if (!inQuotes && (char === 10 || char === 13)) return text.slice(start, index);
  }
  return text.slice(start, limit);
}

/**
 * The delimiter: the one that splits the header into a latitude and a longitude column; failing
 * that, the one that occurs most often in the header (outside quotes); failing that, a comma.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const line = headerLine(text);
  const counts = new Map<CsvDelimiter, number>();
  let inQuotes = false;
  for (const char of line) {
    if (char === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (DELIMITERS as readonly string[]).includes(char)) {
      counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1);
    }
  }
  const present = DELIMITERS.filter((delimiter) => (counts.get(delimiter) ?? 0) > 0);
  const splitting = present.filter((delimiter) => {
    const names = line.split(delimiter).map((name) => name.replace(/^\s*"|"\s*$/g, '').trim().toLowerCase());
    return names.some((name) => LAT_NAMES.has(name)) && names.some((name) => LON_NAMES.has(name));
  });
  const candidates = splitting.length > 0 ? splitting : present;
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  for (const delimiter of candidates) {
    const count = counts.get(delimiter) ?? 0;
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

// ---------------------------------------------------------------- records

function isBlank(fields: string[]): boolean {
  for (const field of fields) if (field !== '') return false;
  return true;
}

/** \r\n and a lone \r as \n. */
const normaliseLineEnds = (text: string): string => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);

/** How many \n the text holds before `end`. */
function linesIn(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The character after the quote that closes the quoted field starting at `start` (doubled quotes skipped). */
function afterClosingQuote(text: string, start: number): string {
  for (let at = start; ; ) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return '';
    if (text[quote + 1] !== '"') return text[quote + 1] ?? '';
    at = quote + 2;
  }
}

/**
 * Where the first quoted field's closing quote is that is followed by something other than the
 * delimiter, a line end or the end of the text; -1 when there is none. papaparse goes on past
 * such a quote and, at every later quote of the record, trims the text up to the record's end:
 * a record of stray quotes and a long run of spaces took minutes. So the text is checked first,
 * in one pass from quote to quote.
 */
function firstMalformedQuote(text: string, delimiter: string): number {
  for (let at = text.indexOf('"'); at !== -1; ) {
    const before = at === 0 ? '\n' : text[at - 1];
    if (before !== delimiter && before !== '\n') {
      at = text.indexOf('"', at + 1); // a quote inside an unquoted field is text
      continue;
    }
    let close = text.indexOf('"', at + 1);
    while (close !== -1 && text[close + 1] === '"') close = text.indexOf('"', close + 2); // doubled quotes
    if (close === -1) return -1; // open to the end of the text
    const after = text[close + 1];
    if (after !== undefined && after !== delimiter && after !== '\n') return close;
    at = text.indexOf('"', close + 1);
  }
  return -1;
}

/**
 * Where the first line starts that holds more than MAX_TABLE_COLUMNS fields, counted without
 * making them; -1 when there is none. papaparse makes every field of a record before handing it
 * over: a 15 MB line of delimiters took 226 MB, 434 MB with a quote in it. Only a line longer
 * than MAX_TABLE_COLUMNS characters can hold that many fields, and only lines that start a
 * record (outside a quoted field, by the parity of the quotes before them) are counted.
 */
function firstTooWideLine(text: string, delimiter: string): number {
  const separator = delimiter.charCodeAt(0);
  let parityAt = 0;
  let inQuotes = false;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > MAX_TABLE_COLUMNS) {
      for (let quote = text.indexOf('"', parityAt); quote !== -1 && quote < start; quote = text.indexOf('"', quote + 1)) inQuotes = !inQuotes;
      parityAt = start;
      let quoted = inQuotes;
      let fields = 1;
      for (let at = start; at < end && !inQuotes; at++) {
        const char = text.charCodeAt(at);
        if (char === 34) quoted = !quoted;
        else if (char === separator && !quoted && ++fields > MAX_TABLE_COLUMNS) return start;
      }
    }
    if (newline === -1) return -1;
    start = newline + 1;
  }
  return -1;
}

/**
 * Reads the records of CSV text that arrives in pieces (or whole) and hands each one to
 * `onRecord` with its 1-based record number (blank lines are records too; a final line end
 * starts none). The delimiter is the given one or, when absent, told from the header line.
 * Throws csv_parse_error for a quote that is never closed or is followed by other text,
 * sheet_too_large past the row or column limit, cell_too_large for a field over the limit.
 *
 * Each window is what was left of the last one (an unfinished record) and the next piece; a
 * record longer than a piece waits until the window is twice its length, so a long record is
 * read again only a few times.
 */
export function readCsvRecords(
  pieces: string | Iterable<string>,
  delimiter: CsvDelimiter | undefined,
  onRecord: (row: number, fields: string[]) => void,
): void {
  const iterator = (typeof pieces === 'string' ? [pieces] : pieces)[Symbol.iterator]();
  let row = 1;
  /** Records that are not blank. */
  let rows = 0;
  let linesBefore = 0;
  /** The window being read, where the current record starts in it, and the text held back for the next. */
  let text = '';
  let recordStart = 0;
  let rest = '';
  /** How long the unfinished record was when the last window was read. */
  let carried = 0;
  let parser: Papa.Parser | undefined;

  const where = (): string => {
    const line = linesBefore + linesIn(text, recordStart) + 1;
    return line === row ? `row ${row}` : `row ${row} (line ${line})`;
  };
  const quotedProblem = (error: Papa.ParseError): AppError => {
    if (error.code === 'MissingQuotes') {
      const shown = JSON.stringify(text.slice((error.index ?? 1) - 1, (error.index ?? 1) + 29)); // from its opening quote
      return new AppError('csv_parse_error', `${where()}: a quoted field is never closed (it starts with ${shown})`);
    }
    return new AppError(
      'csv_parse_error',
      `${where()}: a quoted field is followed by ${JSON.stringify(afterClosingQuote(text, error.index ?? 0))} instead of a delimiter or a line end (a quote inside a quoted field must be doubled)`,
    );
  };
  // The parser (unlike Papa.parse) hands its step the rows it read: one.
  const step = (results: Papa.ParseStepResult<string[][]>): void => {
    const fields = results.data[0]!;
    if (results.errors.length > 0) throw quotedProblem(results.errors[0]!);
    // Blank lines (and lines of empty fields) are no rows of the table, as in the spreadsheets.
    if (!isBlank(fields) && ++rows > MAX_TABLE_ROWS) throw new AppError('sheet_too_large', `the file has more than ${MAX_TABLE_ROWS} rows`);
    if (fields.length > MAX_TABLE_COLUMNS) {
      throw new AppError('sheet_too_large', `${where()} has more than ${MAX_TABLE_COLUMNS} columns (is the delimiter ${JSON.stringify(delimiter)} right?)`);
    }
    for (const field of fields) {
      if (field.length > MAX_CELL_LENGTH) throw new AppError('cell_too_large', `${where()}: a field is longer than ${MAX_CELL_LENGTH} characters`);
    }
    onRecord(row, fields);
    row++;
    recordStart = results.meta.cursor;
  };

  for (let next = iterator.next(); ; ) {
    const following = next.done ? next : iterator.next();
    const last = following.done === true;
    let piece = next.done ? '' : next.value;
    // A \r at a piece's end may be the first half of a \r\n: it waits for the next piece.
    let heldReturn = false;
    if (!last && piece.endsWith('\r')) {
      piece = piece.slice(0, -1);
      heldReturn = true;
    }
    const window = rest + normaliseLineEnds(piece);
    // The delimiter is told from the header line: wait until the window holds all of it.
    const waiting = parser === undefined ? window.length < 65_536 && !window.includes('\n') : window.length < 2 * carried;
    if (waiting && !last) {
      rest = window;
      next = heldReturn ? { done: false, value: '\r' + following.value } : following;
      continue;
    }
    delimiter ??= detectDelimiter(window);
    parser ??= new Papa.Parser({ delimiter, newline: '\n', quoteChar: '"', step });
    // A final line end starts no record.
    text = last && window.endsWith('\n') ? window.slice(0, -1) : window;
    recordStart = 0;
    const malformed = firstMalformedQuote(text, delimiter);
    const wide = firstTooWideLine(text, delimiter);
    if (wide !== -1 && (malformed === -1 || wide < malformed)) {
      parser.parse(text.slice(0, wide), 0, true); // the records before it
      throw new AppError('sheet_too_large', `${where()} has more than ${MAX_TABLE_COLUMNS} columns (is the delimiter ${JSON.stringify(delimiter)} right?)`);
    }
    if (malformed !== -1) {
      // papaparse reads up to just past it and reports it (quotedProblem), with its row and line.
      parser.parse(text.slice(0, malformed + 2), 0, false);
      throw new AppError('csv_parse_error', `${where()}: a quoted field is followed by ${JSON.stringify(text[malformed + 1])} instead of a delimiter or a line end`);
    }
    if (text.length > 0 || !last) parser.parse(text, 0, !last);
    if (last) return;
    linesBefore += linesIn(text, recordStart);
    rest = text.slice(recordStart);
    carried = rest.length;
    next = heldReturn ? { done: false, value: '\r' + following.value } : following;
  }
}
