// ODS (OpenDocument spreadsheet) reader: the first table of content.xml, streamed row by row as
// it is inflated (the rest of the file is not read).
// Repeated rows and cells (`table:number-rows-repeated`, `table:number-columns-repeated`, which
// LibreOffice uses for the empty rest of a sheet) are never expanded while empty; typed values
// come from the office:*value attributes, text from the cell's paragraphs (annotations left out).
import { AppError } from '../../errors.js';
import type { TableBuilder, TableCell } from '../table.js';
import { odsTimeToIso } from './cells.js';
import { checkCellLength, checkCellPosition } from '../tableLimits.js';
import { scanZipPart, type XmlHandler, type XmlScanner } from './xml.js';
import type { ZipArchive } from '../zip.js';

function repeatCount(value: string | undefined): number {
  if (value === undefined) return 1;
  const count = Number(value);
  return Number.isInteger(count) && count >= 1 ? count : 1;
}

class ContentHandler implements XmlHandler {
  private tableDepth = 0;
  private row = 1;
  private rowRepeat = 1;
  private column = 0;
  private cells: TableCell[] = [];
  private inRow = false;

  // The current cell.
  private inCell = false;
  private cellDepth = 0;
  private depth = 0;
  private columnRepeat = 1;
  private typedValue: TableCell = null;
  private isText = false;
  private paragraphs: string[] = [];
  private paragraph = '';
  /** Characters of the cell's text so far: spaces repeated by <text:s c> can make it grow far past the file. */
  private cellChars = 0;
  private inParagraph = false;
  private annotation = 0;

  constructor(private readonly builder: TableBuilder) {}

  start(s: XmlScanner, selfClosing: boolean): void {
    if (!selfClosing) this.depth++;
    if (s.is('table')) {
      if (!selfClosing) this.tableDepth++;
      return;
    }
    if (this.tableDepth !== 1) return;
    if (this.inCell) {
      this.cellContent(s, selfClosing);
      return;
    }
    if (s.is('table-row')) {
      this.rowRepeat = repeatCount(s.attr('number-rows-repeated'));
      this.column = 0;
      this.cells.length = 0;
      if (selfClosing) this.row += this.rowRepeat;
      else this.inRow = true;
    } else if (this.inRow && (s.is('table-cell') || s.is('covered-table-cell'))) {
      this.startCell(s);
      if (selfClosing) this.endCell();
      else {
        this.inCell = true;
        this.cellDepth = this.depth;
      }
    }
  }

  private startCell(s: XmlScanner): void {
    this.columnRepeat = repeatCount(s.attr('number-columns-repeated'));
    this.typedValue = null;
    this.isText = false;
    this.paragraphs.length = 0;
    this.cellChars = 0;
    const type = s.attr('office:value-type') ?? s.attr('value-type');
    if (s.attr('calcext:value-type') === 'error') return; // #N/A and friends: no value
    switch (type) {
      case 'float':
      case 'percentage':
      case 'currency': {
        const raw = s.attr('office:value') ?? s.attr('value');
        const number = raw === undefined ? NaN : Number(raw);
        if (Number.isFinite(number)) this.typedValue = number;
        else this.isText = true;
        break;
      }
      case 'date':
        this.typedValue = s.attr('office:date-value') ?? s.attr('date-value') ?? null;
        break;
      case 'time': {
        const raw = s.attr('office:time-value') ?? s.attr('time-value');
        this.typedValue = raw === undefined ? null : odsTimeToIso(raw);
        break;
      }
      case 'boolean': {
        const raw = s.attr('office:boolean-value') ?? s.attr('boolean-value');
        this.typedValue = raw === undefined ? null : raw === 'true';
        break;
      }
      case 'string': {
        const raw = s.attr('office:string-value') ?? s.attr('string-value');
        if (raw !== undefined) this.typedValue = raw;
        else this.isText = true;
        break;
      }
      default:
        this.isText = true;
    }
  }

  private cellContent(s: XmlScanner, selfClosing: boolean): void {
    if (s.is('annotation')) {
      if (!selfClosing) this.annotation++;
      return;
    }
    if (this.annotation > 0 || !this.isText) return;
    if (s.is('p') || s.is('h')) {
      if (this.depth === this.cellDepth + 1 || (selfClosing && this.depth === this.cellDepth)) {
        if (selfClosing) this.paragraphs.push('');
        else {
          this.inParagraph = true;
          this.paragraph = '';
          s.wantText = true;
        }
      }
      return;
    }
    if (!this.inParagraph) return;
    if (s.is('s')) this.addText(' '.repeat(Math.min(repeatCount(s.attr('c')), 1000)));
    else if (s.is('tab')) this.addText('\t');
    else if (s.is('line-break')) this.addText('\n');
    else if (s.is('note') || s.is('ruby-text')) s.wantText = false; // footnotes, ruby annotations
  }

  end(s: XmlScanner): void {
    this.depth--;
    if (s.is('table')) {
      this.tableDepth--;
      if (this.tableDepth === 0) s.stop(); // the first sheet only
      return;
    }
    if (this.tableDepth !== 1) return;
    if (this.inCell) {
      if (this.depth < this.cellDepth) {
        this.inCell = false;
        this.endCell();
      } else if (s.is('annotation')) this.annotation--;
      else if (this.inParagraph && (s.is('p') || s.is('h')) && this.depth === this.cellDepth) {
        this.inParagraph = false;
        s.wantText = false;
        this.paragraphs.push(this.paragraph);
      } else if (this.inParagraph && (s.is('note') || s.is('ruby-text'))) s.wantText = true;
      return;
    }
    if (s.is('table-row') && this.inRow) {
      this.inRow = false;
      if (this.cells.length > 0) {
        checkCellPosition(this.row + this.rowRepeat - 1, 0);
        for (let copy = 0; copy < this.rowRepeat; copy++) this.builder.addRow(this.row + copy, this.cells);
      }
      this.row += this.rowRepeat;
      this.cells.length = 0;
    }
  }

  private endCell(): void {
    let value = this.typedValue;
    if (value === null && this.isText) {
      const text = this.paragraphs.join('\n');
      value = text === '' ? null : text;
    }
    const first = this.column;
    this.column += this.columnRepeat;
    if (value === null || value === '') return;
    checkCellPosition(this.row, this.column - 1);
    for (let column = first; column < this.column; column++) this.cells[column] = value;
  }

  text(text: string): void {
    if (this.inParagraph) this.addText(text);
  }

  private addText(text: string): void {
    this.cellChars += text.length + (this.paragraph === '' && this.paragraphs.length > 0 ? 1 : 0);
    checkCellLength(this.cellChars, this.row, this.column);
    this.paragraph += text;
  }
}

export const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

/** Reads the first table of an ODS archive into the builder. */
export async function readOds(zip: ZipArchive, builder: TableBuilder): Promise<void> {
  if (!(await scanZipPart(zip, 'content.xml', new ContentHandler(builder)))) {
    throw new AppError('invalid_spreadsheet', 'the ODS file is not a valid spreadsheet: it has no content.xml');
  }
}
