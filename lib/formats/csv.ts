// CSV table imports (map/append with file_type "csv"): text encoding and delimiter detection,
// an RFC 4180 reader with limits, and the shared table conversion of ./table.ts.
//
// The reader is written here rather than taken from papaparse: on a 15 MB file it runs in about
// half of papaparse's time, enforces the column, field and row limits while it reads (so a 15 MB
// line or a never-closed quote stops early instead of being materialised), knows the row and
// line of every problem, and accepts mixed \r\n / \n / \r line ends without a normalising copy.

import chardet from 'chardet';
import { AppError } from '../errors.js';
import { fixWindows1252 } from './windows1252.js';
import { TableBuilder } from './table.js';
import { MAX_CELL_LENGTH, MAX_TABLE_COLUMNS, MAX_TABLE_ROWS } from './tableLimits.js';
import { asInput, byteOrderMark, isUtf8File, type FileInput, type ParserInput } from './input.js';
import type { FormatParser, ParsedFile, ParseOptions } from './types.js';

// ---------------------------------------------------------------- encodings

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Looks for UTF-16 without a byte order mark: every other byte zero in the first kilobyte. */
function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(bytes.length, 1024) & ~1;
  if (length < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let index = 0; index < length; index += 2) {
    if (bytes[index] === 0) zeroEven++;
    if (bytes[index + 1] === 0) zeroOdd++;
  }
  const pairs = length / 2;
  if (zeroOdd > pairs * 0.4 && zeroEven === 0) return 'utf-16le';
  if (zeroEven > pairs * 0.4 && zeroOdd === 0) return 'utf-16be';
  return null;
}

/**
 * True when the high bytes of a non-UTF-8 file mostly come in runs, as in the double-byte
 * encodings (GBK, Big5, Shift-JIS, EUC-KR), rather than alone, as the accented letters of
 * Windows-1252 text do.
 */
function highBytesInRuns(bytes: Uint8Array): boolean {
  let high = 0;
  let inRuns = 0;
  let run = 0;
  const flush = () => {
    if (run >= 4) inRuns += run;
    run = 0;
  };
  for (let index = 0; index < bytes.length; index++) {
    if ((bytes[index] as number) >= 0x80) {
      high++;
      run++;
    } else if (run > 0) flush();
  }
  flush();
  return high >= 8 && inRuns > high / 2;
}

/** Bytes that are no character in Windows-1252: a file holding one is in another encoding. */
const UNDEFINED_IN_WINDOWS_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** What chardet (statistics of each encoding's byte sequences) takes for a legacy multi-byte encoding. */
const MULTI_BYTE = /^(GB18030|Big5|Shift_JIS|EUC-JP|EUC-KR|ISO-2022-(JP|KR|CN))$/;
/** How much of the file chardet looks at: from the first non-ASCII byte on (it takes ~15 ms per 64 kB). */
const SAMPLE_BYTES = 64 * 1024;

/** The legacy multi-byte encoding chardet recognises in the file (from its first non-ASCII byte on), if it does. */
function multiByteEncoding(bytes: Uint8Array): string | null {
  let firstHigh = 0;
  while (firstHigh < bytes.length && (bytes[firstHigh] as number) < 0x80) firstHigh++;
  if (firstHigh === bytes.length) return null;
  const start = Math.max(0, firstHigh - 1024);
  const [best] = chardet.analyse(bytes.subarray(start, start + SAMPLE_BYTES));
  return best && best.confidence >= 50 && MULTI_BYTE.test(best.name) ? best.name : null;
}

/**
 * Why a file that is not UTF-8 cannot be Windows-1252 text, or null: it holds a byte that is no
 * Windows-1252 character, chardet recognises a legacy multi-byte encoding (GBK/GB18030, Big5,
 * Shift-JIS, EUC-JP, EUC-KR), or its non-ASCII bytes come in runs as in those encodings.
 * Decoded as Windows-1252, such a file would be imported as mojibake.
 */
function notWindows1252(bytes: Uint8Array): string | null {
  for (let index = 0; index < bytes.length; index++) if (UNDEFINED_IN_WINDOWS_1252.has(bytes[index] as number)) return 'a multi-byte encoding';
  return multiByteEncoding(bytes) ?? (highBytesInRuns(bytes) ? 'a multi-byte encoding' : null);
}

export interface DecodedCsv {
  text: string;
  encoding: CsvEncoding;
  /** Byte sequences of an almost-UTF-8 file that are not UTF-8, imported as U+FFFD: how many, and the line of the first. */
  replaced?: { count: number; line: number };
}

/**
 * Decodes the bytes of a CSV file: UTF-8 (byte order mark optional), UTF-16 LE/BE (with a byte
 * order mark, or recognised by its zero bytes), otherwise Windows-1252. A file that is almost
 * entirely valid UTF-8 (no more broken sequences than well-formed non-ASCII characters) stays UTF-8,
 * its broken bytes imported as U+FFFD and reported (`replaced`); a file that cannot be
 * Windows-1252 (see notWindows1252) is refused rather than imported as mojibake.
 */
export function decodeCsv(bytes: Uint8Array): DecodedCsv {
  const marked = byteOrderMark(bytes);
  if (marked !== undefined) return { text: new TextDecoder(marked).decode(bytes), encoding: marked }; // strips the mark
  const utf16 = guessUtf16(bytes);
  if (utf16 !== null) return { text: new TextDecoder(utf16).decode(bytes), encoding: utf16 };

  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // not valid UTF-8: see below
  }
  const lenient = new TextDecoder('utf-8').decode(bytes);
  // Broken sequences (runs of U+FFFD) against well-formed non-ASCII characters: Windows-1252
  // text almost never forms a valid multi-byte UTF-8 sequence.
  let brokenRuns = 0;
  let nonAscii = 0;
  let previous = 0;
  let firstBroken = -1;
  for (let index = 0; index < lenient.length; index++) {
    const code = lenient.charCodeAt(index);
    if (code === 0xfffd) {
      if (previous !== 0xfffd) brokenRuns++;
      if (firstBroken === -1) firstBroken = index;
    } else if (code >= 0x80) nonAscii++;
    previous = code;
  }
  // Almost all UTF-8 — unless it is a legacy multi-byte text, parts of which read as UTF-8 too.
  const almostUtf8 = nonAscii > 0 && nonAscii >= brokenRuns;
  const other = almostUtf8 ? multiByteEncoding(bytes) : notWindows1252(bytes);
  if (almostUtf8 && other === null) {
    return { text: lenient, encoding: 'utf-8', replaced: { count: brokenRuns, line: lineOf(lenient, firstBroken) } };
  }
  if (other !== null) {
    throw new AppError(
      'unsupported_encoding',
      `the file is neither UTF-8 nor Windows-1252 text (it looks like ${other === 'a multi-byte encoding' ? 'a multi-byte encoding such as GBK, Big5 or Shift-JIS' : other}); save it as UTF-8 CSV`,
    );
  }
  return { text: fixWindows1252(new TextDecoder('windows-1252').decode(bytes)), encoding: 'windows-1252' };
}

/** The 1-based line of a position in the text. */
function lineOf(text: string, position: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < position; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

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

/** Line number (1-based) of a position of the text: \r\n, \n and a lone \r each end a line. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < position; at = text.indexOf('\n', at + 1)) line++;
  for (let at = text.indexOf('\r'); at !== -1 && at < position; at = text.indexOf('\r', at + 1)) {
    if (text.charCodeAt(at + 1) !== 10) line++;
  }
  return line;
}

/**
 * Where the text being read sits in a file read window by window: the first record's number,
 * the lines before the text, and (for every window but the last) how to tell whether a quote
 * comes later in the file.
 */
export interface CsvWindow {
  row: number;
  linesBefore: number;
  /** Undefined for the last window. Reads on through the file: is there a double quote still? */
  quoteLater?: () => boolean;
}

/**
 * Reads the records of CSV text (RFC 4180: fields in double quotes may hold delimiters, line
 * ends and doubled quotes; line ends may be \r\n, \n or \r, mixed) and hands each one to
 * `onRecord` with its 1-based record number. The fields array is reused between calls.
 * Throws csv_parse_error for a quote that is never closed or is followed by other text,
 * sheet_too_large / cell_too_large past the limits.
 *
 * With a window that is not the last (`quoteLater` set), a record that reaches the end of the
 * text is left for the next window: returns where it starts (all of the text is read
 * otherwise) and moves `window.row` on.
 */
export function readCsvRecords(
  text: string,
  delimiter: CsvDelimiter,
  onRecord: (row: number, fields: string[]) => void,
  window: CsvWindow = { row: 1, linesBefore: 0 },
): number {
  const separator = delimiter.charCodeAt(0);
  const length = text.length;
  const more = window.quoteLater !== undefined;
  const fields: string[] = [];
  let row = window.row;
  let position = 0;
  let recordStart = 0;

  const where = (at: number): string => {
    const line = window.linesBefore + lineAt(text, at);
    return line === row ? `row ${row}` : `row ${row} (line ${line})`;
  };
  const fieldTooLong = (at: number): never => {
    throw new AppError('cell_too_large', `${where(at)}: a field is longer than ${MAX_CELL_LENGTH} characters`);
  };
  /** Ends the record before `next`; false when it is left for the next window. */
  const endRecord = (next: number): boolean => {
    if (more && next >= length) return false;
    if (row > MAX_TABLE_ROWS) {
      throw new AppError('sheet_too_large', `the file has more than ${MAX_TABLE_ROWS} rows`);
    }
    onRecord(row, fields);
    fields.length = 0;
    row++;
    position = recordStart = next;
    return true;
  };
  const pushField = (value: string, start: number) => {
    if (value.length > MAX_CELL_LENGTH) fieldTooLong(start);
    if (fields.length >= MAX_TABLE_COLUMNS) {
      throw new AppError(
        'sheet_too_large',
        `${where(start)} has more than ${MAX_TABLE_COLUMNS} columns (is the delimiter ${JSON.stringify(delimiter)} right?)`,
      );
    }
    fields.push(value);
  };
  const lineEnd = (at: number): number => at + (text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? 2 : 1);

  while (position < length) {
    const fieldStart = position;
    let char = text.charCodeAt(position);
    if (char === 34) {
      // Quoted field.
      let value = '';
      let from = position + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close === -1) {
          const open = length - fieldStart > MAX_CELL_LENGTH + 2;
          if (more && !open) break; // it may close in the next window
          if (more && window.quoteLater!()) fieldTooLong(fieldStart);
          const shown = JSON.stringify(text.slice(fieldStart, fieldStart + 30));
          throw new AppError('csv_parse_error', `${where(fieldStart)}: a quoted field is never closed (it starts with ${shown})`);
        }
        if (close - fieldStart > MAX_CELL_LENGTH + 2) fieldTooLong(fieldStart);
        if (text.charCodeAt(close + 1) === 34) {
          value += text.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        value += text.slice(from, close);
        position = close + 1;
        break;
      }
      if (position === fieldStart) break; // the quoted field goes on in the next window
      pushField(value, fieldStart);
      if (position >= length) {
        if (!endRecord(position)) break;
        continue;
      }
      char = text.charCodeAt(position);
      if (char === separator) {
        position++;
        if (position >= length) {
          pushField('', position);
          if (!endRecord(position)) break;
        }
        continue;
      }
      if (char === 10 || char === 13) {
        if (!endRecord(lineEnd(position))) break;
        continue;
      }
      throw new AppError(
        'csv_parse_error',
        `${where(position)}: a quoted field is followed by ${JSON.stringify(text[position])} instead of a delimiter or a line end (a quote inside a quoted field must be doubled)`,
      );
    }

    // Unquoted field: up to the next delimiter or line end.
    let end = position;
    while (end < length) {
      char = text.charCodeAt(end);
      if (char === separator || char === 10 || char === 13) break;
      end++;
    }
    if (end - position > MAX_CELL_LENGTH) fieldTooLong(position);
    pushField(text.slice(position, end), fieldStart);
    if (end >= length) {
      if (!endRecord(end)) break;
      continue;
    }
    if (char === separator) {
      position = end + 1;
      if (position >= length) {
        pushField('', position);
        if (!endRecord(position)) break;
      }
      continue;
    }
    if (!endRecord(lineEnd(end))) break;
  }
  window.row = row;
  return more ? recordStart : length;
}

/**
 * Reads CSV text that arrives in pieces: each window is what is left of the last one plus the
 * next piece; a record cut by the end of a window is read again with the next. A long record
 * waits until the window is twice its length, so it is read again only a few times.
 */
function readCsvPieces(pieces: Iterable<string>, onRecord: (row: number, fields: string[]) => void): void {
  const iterator = pieces[Symbol.iterator]();
  const window: CsvWindow = { row: 1, linesBefore: 0 };
  let delimiter: CsvDelimiter | undefined;
  let rest = '';
  let carried = 0;
  for (let next = iterator.next(); ; ) {
    const text = rest + (next.done ? '' : next.value);
    const following = next.done ? next : iterator.next();
    // The delimiter is told from the header line: wait until the text holds all of it.
    const waiting = delimiter === undefined ? text.length < 65_536 && !/[\r\n]/.test(text) : text.length < 2 * carried;
    if (waiting && !following.done) {
      rest = text;
      next = following;
      continue;
    }
    delimiter ??= detectDelimiter(text);
    window.quoteLater = following.done ? undefined : () => quoteIn(following.value, iterator);
    const read = readCsvRecords(text, delimiter, onRecord, window);
    if (following.done) return;
    window.linesBefore += lineAt(text, read) - 1;
    rest = text.slice(read);
    carried = rest.length;
    next = following;
  }
}

/** Whether a double quote comes in this text or any later piece. */
function quoteIn(text: string, later: Iterator<string>): boolean {
  if (text.includes('"')) return true;
  for (let next = later.next(); !next.done; next = later.next()) if (next.value.includes('"')) return true;
  return false;
}

// ---------------------------------------------------------------- the parser

/**
 * CSV import: decodes the bytes (see decodeCsv), detects the delimiter (comma, semicolon, tab or
 * pipe) and converts the rows (see TableBuilder). Row numbers in `skipped` and in errors count
 * the header as row 1, as a spreadsheet application shows the file. A file whose encoding is
 * certain from its start (a byte order mark, UTF-16, or valid UTF-8 throughout) is decoded and
 * read in 64 kB pieces; only a file that needs the Windows-1252 guess is decoded whole.
 */
export const parseCsv: FormatParser = (file: ParserInput, options: ParseOptions): ParsedFile => {
  const input = asInput(file);
  const encoding = streamableEncoding(input);
  const decoded = encoding === null ? decodeCsv(input.bytes()) : undefined;
  const texts = decoded ? [decoded.text] : decodePieces(input, encoding!);
  let blank = true;
  function* noticingText(): Generator<string> {
    for (const text of texts) {
      if (blank && /\S/.test(text)) blank = false;
      yield text;
    }
  }
  const builder = new TableBuilder(options);
  if (decoded?.replaced) {
    const { count, line } = decoded.replaced;
    builder.notice(
      `the file is UTF-8 but ${count === 1 ? '1 byte sequence is' : `${count} byte sequences are`} not (the first on line ${line}); ${count === 1 ? 'it was' : 'they were'} imported as \uFFFD`,
      line,
    );
  }
  readCsvPieces(noticingText(), (row, fields) => builder.addRow(row, fields));
  if (blank) throw new AppError('empty_table', 'the file is empty');
  return builder.finish();
};

/** The encoding when the file's start settles it (or the whole file is valid UTF-8); null: guess on the whole (decodeCsv). */
function streamableEncoding(input: FileInput): CsvEncoding | null {
  const head = input.head;
  const marked = byteOrderMark(head);
  if (marked !== undefined) return marked;
  const utf16 = guessUtf16(head);
  if (utf16 !== null) return utf16;
  return isUtf8File(input) ? 'utf-8' : null;
}

function* decodePieces(input: FileInput, encoding: CsvEncoding): Generator<string> {
  const decoder = new TextDecoder(encoding); // drops a byte order mark
  for (const piece of input.pieces()) yield decoder.decode(piece, { stream: true });
  yield decoder.decode();
}

