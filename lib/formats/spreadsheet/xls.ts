// XLS (Excel 97–2003, BIFF8) reader: the Workbook stream of the compound file, its global
// records (shared strings, number formats, cell formats, date system, sheet list) and the cell
// records of the first worksheet. Formulas give their cached value, errors give nothing, dates
// (cells whose format shows a date) give ISO text. Older BIFF versions (Excel 5/95) and encrypted
// workbooks are refused with a clear message.
import { AppError } from '../../errors.js';
import type { TableBuilder, TableCell } from '../table.js';
import { excelSerialToIso, isBuiltinDateFormat, isDateFormatCode } from './cells.js';
import { checkCellPosition } from '../tableLimits.js';
import { CompoundFile } from './cfb.js';

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;
const FILEPASS = 0x002f;
const DATEMODE = 0x0022;
const FORMAT = 0x041e;
const XF = 0x00e0;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;

function invalid(detail: string): never {
  throw new AppError('invalid_spreadsheet', `the XLS file is not a valid workbook: ${detail}`);
}

const oldExcel = (): AppError =>
  new AppError('unsupported_type', 'this XLS file is an Excel 5.0/95 (or older) workbook, which is not supported; save it as .xlsx');

interface BiffRecord {
  type: number;
  data: Uint8Array;
  /** Offset of the record header in the stream. */
  offset: number;
}

/** Iterates the records of a BIFF stream from an offset. */
function* records(stream: Uint8Array, from: number): Generator<BiffRecord> {
  let offset = from;
  while (offset + 4 <= stream.length) {
    const type = stream[offset]! | (stream[offset + 1]! << 8);
    const length = stream[offset + 2]! | (stream[offset + 3]! << 8);
    const start = offset + 4;
    if (start + length > stream.length) invalid('a record runs past the end of the workbook stream');
    yield { type, data: stream.subarray(start, start + length), offset };
    offset = start + length;
  }
}

/**
 * Reads BIFF8 strings that may continue across CONTINUE records: a string's characters go on in
 * the next record after a fresh option byte (compressed or UTF-16), other data simply goes on.
 */
class SegmentReader {
  private segment = 0;
  private offset = 0;

  constructor(private readonly segments: Uint8Array[]) {}

  private current(): Uint8Array | undefined {
    let data = this.segments[this.segment];
    while (data !== undefined && this.offset >= data.length) {
      this.segment++;
      this.offset = 0;
      data = this.segments[this.segment];
    }
    return data;
  }

  get done(): boolean {
    return this.current() === undefined;
  }

  byte(): number {
    const data = this.current();
    if (data === undefined) invalid('a string runs past the end of its records');
    return data[this.offset++] as number;
  }

  u16(): number {
    return this.byte() | (this.byte() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(count: number): void {
    let left = count;
    while (left > 0) {
      const data = this.current();
      if (data === undefined) invalid('a string runs past the end of its records');
      const step = Math.min(left, data.length - this.offset);
      this.offset += step;
      left -= step;
    }
  }

  /** `count` characters, the first run in the given width; later runs restate it. */
  chars(count: number, highByte: boolean): string {
    let text = '';
    let left = count;
    let wide = highByte;
    while (left > 0) {
      let data = this.segments[this.segment];
      if (data === undefined) invalid('a string runs past the end of its records');
      if (this.offset >= data.length) {
        // Characters continue in the next record, which starts with a new option byte.
        this.segment++;
        this.offset = 0;
        data = this.segments[this.segment];
        if (data === undefined || data.length === 0) invalid('a string runs past the end of its records');
        wide = ((data[this.offset++] as number) & 1) === 1;
      }
      const available = data.length - this.offset;
      const take = Math.min(left, wide ? available >> 1 : available);
      if (take === 0) {
        this.offset = data.length;
        continue;
      }
      const bytes = Buffer.from(data.buffer, data.byteOffset + this.offset, take * (wide ? 2 : 1));
      text += bytes.toString(wide ? 'utf16le' : 'latin1');
      this.offset += take * (wide ? 2 : 1);
      left -= take;
    }
    return text;
  }

  /**
   * An XLUnicodeRichExtendedString (the SST's strings), or an XLUnicodeString (LABEL, STRING,
   * FORMAT), whose option bits for runs and extended data are always zero.
   */
  unicodeString(): string {
    const count = this.u16();
    const options = this.byte();
    const runs = options & 0x08 ? this.u16() : 0;
    const extended = options & 0x04 ? this.u32() : 0;
    const text = this.chars(count, (options & 1) === 1);
    if (runs > 0) this.skip(runs * 4);
    if (extended > 0) this.skip(extended);
    return text;
  }
}

/** A record's data with the data of the CONTINUE records that follow it in the stream. */
function withContinues(stream: Uint8Array, record: BiffRecord): Uint8Array[] {
  const segments = [record.data];
  for (const next of records(stream, record.offset + 4 + record.data.length)) {
    if (next.type !== CONTINUE) break;
    segments.push(next.data);
  }
  return segments;
}

function u16(data: Uint8Array, at: number): number {
  if (at + 2 > data.length) invalid('a record is shorter than its kind requires');
  return data[at]! | (data[at + 1]! << 8);
}

function u32(data: Uint8Array, at: number): number {
  return (u16(data, at) | (u16(data, at + 2) << 16)) >>> 0;
}

function f64(data: Uint8Array, at: number): number {
  if (at + 8 > data.length) invalid('a record is shorter than its kind requires');
  return new DataView(data.buffer, data.byteOffset + at, 8).getFloat64(0, true);
}

function rkNumber(rk: number): number {
  let value: number;
  if (rk & 2) {
    value = rk >> 2; // a signed 30-bit integer
  } else {
    const buffer = new DataView(new ArrayBuffer(8));
    buffer.setUint32(4, rk & 0xfffffffc, true);
    value = buffer.getFloat64(0, true);
  }
  return rk & 1 ? value / 100 : value;
}

interface Globals {
  strings: string[];
  date1904: boolean;
  /** Format id of each cell format (XF index). */
  xfFormats: number[];
  customDateFormats: Map<number, boolean>;
  sheetOffset: number;
}

function readGlobals(stream: Uint8Array): Globals {
  const list: BiffRecord[] = [];
  for (const record of records(stream, 0)) {
    list.push(record);
    if (record.type === EOF) break;
  }
  const bof = list[0];
  if (bof === undefined || bof.type !== BOF) invalid('the workbook stream does not start with a BOF record');
  const version = u16(bof.data, 0);
  if (version !== 0x0600) {
    throw oldExcel();
  }

  const globals: Globals = { strings: [], date1904: false, xfFormats: [], customDateFormats: new Map(), sheetOffset: -1 };
  const sheets: { offset: number; hidden: boolean }[] = [];
  for (let index = 0; index < list.length; index++) {
    const { type, data } = list[index] as BiffRecord;
    switch (type) {
      case FILEPASS:
        throw new AppError('encrypted_spreadsheet', 'the XLS file is protected with a password; save it without one');
      case DATEMODE:
        globals.date1904 = u16(data, 0) === 1;
        break;
      case FORMAT: {
        const id = u16(data, 0);
        const code = new SegmentReader([data.subarray(2)]).unicodeString();
        globals.customDateFormats.set(id, isDateFormatCode(code));
        break;
      }
      case XF:
        globals.xfFormats.push(u16(data, 2));
        break;
      case BOUNDSHEET: {
        const offset = u32(data, 0);
        const state = data[4] ?? 0;
        const kind = data[5] ?? 0;
        if (kind === 0) sheets.push({ offset, hidden: (state & 3) !== 0 });
        break;
      }
      case SST: {
        const reader = new SegmentReader(withContinues(stream, list[index] as BiffRecord));
        reader.skip(8);
        const unique = u32(data, 4);
        for (let count = 0; count < unique && !reader.done; count++) globals.strings.push(reader.unicodeString());
        break;
      }
    }
  }
  const chosen = sheets.find((sheet) => !sheet.hidden) ?? sheets[0];
  if (chosen === undefined) invalid('it has no worksheet');
  globals.sheetOffset = chosen.offset;
  return globals;
}

/** Reads the first worksheet of an XLS (BIFF8) file into the builder. */
export function readXls(bytes: Uint8Array, builder: TableBuilder): void {
  const file = new CompoundFile(bytes);
  if (file.find('EncryptionInfo') !== undefined || file.find('EncryptedPackage') !== undefined) {
    throw new AppError('encrypted_spreadsheet', 'the spreadsheet is protected with a password; save it without one');
  }
  const entry = file.find('Workbook');
  if (entry === undefined) {
    if (file.find('Book') !== undefined) {
      throw oldExcel();
    }
    throw new AppError(
      'unsupported_type',
      'the file is an OLE2 compound document (such as a Word .doc) without an Excel workbook in it',
    );
  }
  const stream = file.read(entry);
  const globals = readGlobals(stream);
  if (globals.sheetOffset >= stream.length) invalid('its first worksheet lies outside the workbook stream');

  const isDate = (xf: number): boolean => {
    const format = globals.xfFormats[xf];
    if (format === undefined) return false;
    return globals.customDateFormats.get(format) ?? isBuiltinDateFormat(format);
  };
  const rows = new Map<number, TableCell[]>();
  const put = (row: number, column: number, value: TableCell) => {
    if (value === null || value === undefined || value === '') return;
    checkCellPosition(row + 1, column);
    let cells = rows.get(row);
    if (cells === undefined) {
      cells = [];
      rows.set(row, cells);
    }
    cells[column] = value;
  };
  const numberCell = (xf: number, value: number): TableCell =>
    isDate(xf) ? (excelSerialToIso(value, globals.date1904) ?? value) : value;

  // The sheet's records are read in place (never collected: a big sheet has ~10⁶ of them).
  // Records of embedded substreams (charts: BOF … EOF inside the sheet) are passed over.
  let depth = 0;
  let first = true;
  let pendingFormula: { row: number; column: number } | null = null;
  for (const current of records(stream, globals.sheetOffset)) {
    const { type, data } = current;
    if (first) {
      if (type !== BOF) invalid('its first worksheet does not start with a BOF record');
      first = false;
    }
    if (type === BOF) {
      depth++;
      continue;
    }
    if (type === EOF) {
      depth--;
      if (depth <= 0) break;
      continue;
    }
    if (depth !== 1) continue;
    switch (type) {
      case LABELSST:
        put(u16(data, 0), u16(data, 2), globals.strings[u32(data, 6)] ?? null);
        break;
      case LABEL:
      case RSTRING: {
        const reader = new SegmentReader(withContinues(stream, current).map((d, i) => (i === 0 ? d.subarray(6) : d)));
        put(u16(data, 0), u16(data, 2), reader.unicodeString());
        break;
      }
      case NUMBER:
        put(u16(data, 0), u16(data, 2), numberCell(u16(data, 4), f64(data, 6)));
        break;
      case RK:
        put(u16(data, 0), u16(data, 2), numberCell(u16(data, 4), rkNumber(u32(data, 6))));
        break;
      case MULRK: {
        const row = u16(data, 0);
        const first = u16(data, 2);
        const count = Math.floor((data.length - 6) / 6);
        for (let at = 0; at < count; at++) {
          put(row, first + at, numberCell(u16(data, 4 + at * 6), rkNumber(u32(data, 6 + at * 6))));
        }
        break;
      }
      case BOOLERR:
        if ((data[7] ?? 0) === 0) put(u16(data, 0), u16(data, 2), (data[6] ?? 0) !== 0);
        break;
      case FORMULA: {
        const row = u16(data, 0);
        const column = u16(data, 2);
        if (data.length < 14) invalid('a formula record is too short');
        if (data[12] === 0xff && data[13] === 0xff) {
          const kind = data[6];
          if (kind === 0) pendingFormula = { row, column }; // the text follows in a STRING record
          else if (kind === 1) put(row, column, data[8] !== 0);
          // 2: an error, 3: an empty string: no value
        } else {
          put(row, column, numberCell(u16(data, 4), f64(data, 6)));
        }
        break;
      }
      case STRING:
        if (pendingFormula !== null) {
          const reader = new SegmentReader(withContinues(stream, current));
          put(pendingFormula.row, pendingFormula.column, reader.unicodeString());
          pendingFormula = null;
        }
        break;
    }
  }

  for (const row of [...rows.keys()].sort((a, b) => a - b)) builder.addRow(row + 1, rows.get(row) as TableCell[]);
}
