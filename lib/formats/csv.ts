// CSV table imports (map/append with file_type "csv"): the text encoding, then the records
// (./csvRecords.ts: the delimiter and papaparse) converted by the shared table code of ./table.ts.

import chardet from 'chardet';
import { AppError } from '../errors.js';
import { fixWindows1252 } from './windows1252.js';
import { TableBuilder } from './table.js';
import { readCsvRecords } from './csvRecords.js';
import { asInput, byteOrderMark, isUtf8File, type FileInput, type ParserInput } from './input.js';
import type { FormatParser, ParsedFile, ParseOptions } from './types.js';

// ---------------------------------------------------------------- encodings

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Looks for UTF-16 without a byte order mark: zero bytes mostly on one side of the code units of the first kilobyte. */
export function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(bytes.length, 1024) & ~1;
  if (length < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let index = 0; index < length; index += 2) {
    if (bytes[index] === 0) zeroEven++;
    if (bytes[index + 1] === 0) zeroOdd++;
  }
  // Text that is mostly ASCII has the zero byte of most of its code units on one side; a few on
  // the other side are characters like 一 (U+4E00), whose other byte is zero. UTF-8 and the
  // single-byte encodings have no zero bytes at all.
  const pairs = length / 2;
  if (zeroOdd > pairs * 0.4 && zeroEven <= zeroOdd / 8) return 'utf-16le';
  if (zeroEven > pairs * 0.4 && zeroOdd <= zeroEven / 8) return 'utf-16be';
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
  readCsvRecords(noticingText(), undefined, (row, fields) => builder.addRow(row, fields));
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

