// XLSX (Office Open XML spreadsheet) reader: the first worksheet's cells, streamed row by row
// from the sheet XML as it is inflated, with the shared strings and the date styles; the
// declared `<dimension>` is ignored (cells are read where they are, never into a dense grid).
import { AppError } from '../../errors.js';
import type { TableBuilder, TableCell } from '../table.js';
import { excelSerialToIso, isBuiltinDateFormat, isDateFormatCode, parseCellReference } from './cells.js';
import { checkCellPosition } from '../tableLimits.js';
import { TextTable } from '../textTable.js';
import { decodeOoxmlEscapes, scanZipPart, type XmlHandler, type XmlScanner } from './xml.js';
import { folderOf, joinArchivePath, type ZipArchive } from '../zip.js';

interface Relationship {
  type: string;
  target: string;
}

function invalid(detail: string): never {
  throw new AppError('invalid_spreadsheet', `the XLSX file is not a valid workbook: ${detail}`);
}

function relationshipsPart(part: string): string {
  const folder = folderOf(part);
  const file = part.slice(folder === '' ? 0 : folder.length + 1);
  return `${folder === '' ? '' : `${folder}/`}_rels/${file}.rels`;
}

/** Reads a relationships part: Id → {type, target (resolved)}. */
async function readRelationships(zip: ZipArchive, part: string): Promise<Map<string, Relationship>> {
  const relationships = new Map<string, Relationship>();
  const folder = folderOf(part);
  await scanZipPart(zip, relationshipsPart(part), {
    start(s) {
      if (!s.is('Relationship')) return;
      const id = s.attr('Id');
      const type = s.attr('Type') ?? '';
      const target = s.attr('Target');
      if (id === undefined || target === undefined || s.attr('TargetMode') === 'External') return;
      const resolved = joinArchivePath(folder, target);
      if (resolved !== undefined && !relationships.has(id)) relationships.set(id, { type, target: resolved });
    },
    end() {},
    text() {},
  });
  return relationships;
}

function findByType(relationships: Map<string, Relationship>, suffix: string): string | undefined {
  for (const relationship of relationships.values()) {
    if (relationship.type.endsWith(suffix)) return relationship.target;
  }
  return undefined;
}

interface Workbook {
  date1904: boolean;
  sheetPart: string;
  sharedStringsPart: string | undefined;
  stylesPart: string | undefined;
}

async function readWorkbook(zip: ZipArchive): Promise<Workbook> {
  const rootRelationships = await readRelationships(zip, '');
  const workbookPart = findByType(rootRelationships, '/officeDocument') ?? 'xl/workbook.xml';
  if (!zip.has(workbookPart)) invalid(`it has no workbook part (${workbookPart})`);
  const relationships = await readRelationships(zip, workbookPart);

  let date1904 = false;
  const sheets: { relationship: string; hidden: boolean }[] = [];
  await scanZipPart(zip, workbookPart, {
    start(s) {
      if (s.is('workbookPr')) {
        const value = s.attr('date1904');
        date1904 = value === '1' || value === 'true';
      } else if (s.is('sheet')) {
        const relationship = s.attr('id');
        const state = s.attr('state');
        if (relationship !== undefined) sheets.push({ relationship, hidden: state === 'hidden' || state === 'veryHidden' });
      }
    },
    end() {},
    text() {},
  });

  // The first worksheet that is not hidden (else the first worksheet); chart sheets do not count.
  const worksheets = sheets.filter((sheet) => relationships.get(sheet.relationship)?.type.endsWith('/worksheet'));
  const chosen = worksheets.find((sheet) => !sheet.hidden) ?? worksheets[0];
  if (chosen === undefined) invalid('it has no worksheet');
  const sheetPart = (relationships.get(chosen.relationship) as Relationship).target;
  return {
    date1904,
    sheetPart,
    sharedStringsPart: findByType(relationships, '/sharedStrings'),
    stylesPart: findByType(relationships, '/styles'),
  };
}

/** The shared string table: plain and rich text (runs concatenated, phonetic runs left out). */
async function readSharedStrings(zip: ZipArchive, part: string | undefined): Promise<TextTable> {
  const entry = part === undefined ? undefined : zip.entry(part);
  const strings = new TextTable(entry?.size);
  if (part === undefined) return strings;
  let current = '';
  let inItem = false;
  let phonetic = 0;
  await scanZipPart(zip, part, {
    start(s, selfClosing) {
      if (selfClosing) {
        if (s.is('si')) strings.add('');
        return;
      }
      if (s.is('sst')) {
        strings.expect(Number(s.attr('uniqueCount')));
      } else if (s.is('si')) {
        inItem = true;
        current = '';
      } else if (s.is('rPh')) phonetic++;
      else if (s.is('t') && inItem && phonetic === 0) s.wantText = true;
    },
    end(s) {
      if (s.is('t')) s.wantText = false;
      else if (s.is('rPh')) phonetic--;
      else if (s.is('si')) {
        strings.add(decodeOoxmlEscapes(current));
        inItem = false;
      }
    },
    text(text) {
      current += text;
    },
  });
  return strings;
}

/** Which cell formats (`s` attribute values) show dates. */
async function readDateStyles(zip: ZipArchive, part: string | undefined): Promise<boolean[]> {
  const isDate: boolean[] = [];
  if (part === undefined) return isDate;
  const customDate = new Map<number, boolean>();
  let inCellXfs = false;
  await scanZipPart(zip, part, {
    start(s, selfClosing) {
      if (s.is('numFmt')) {
        const id = Number(s.attr('numFmtId'));
        const code = s.attr('formatCode');
        if (Number.isInteger(id) && code !== undefined) customDate.set(id, isDateFormatCode(code));
      } else if (s.is('cellXfs') && !selfClosing) inCellXfs = true;
      else if (s.is('xf') && inCellXfs) {
        const id = Number(s.attr('numFmtId') ?? 0);
        isDate.push(customDate.get(id) ?? isBuiltinDateFormat(id));
      }
    },
    end(s) {
      if (s.is('cellXfs')) inCellXfs = false;
    },
    text() {},
  });
  return isDate;
}

/** Streams the rows of a worksheet part into the builder. */
class SheetHandler implements XmlHandler {
  private row = 0;
  private column = -1;
  private cells: TableCell[] = [];
  private type = '';
  private style = 0;
  private value = '';
  private hasValue = false;
  private inInline = false;
  private phonetic = 0;
  private inCell = false;

  constructor(
    private readonly builder: TableBuilder,
    private readonly strings: TextTable,
    private readonly dateStyles: readonly boolean[],
    private readonly date1904: boolean,
  ) {}

  start(s: XmlScanner, selfClosing: boolean): void {
    if (s.is('c')) {
      const ref = s.attr('r');
      const position = ref === undefined ? null : parseCellReference(ref);
      this.column = position === null ? this.column + 1 : position[1];
      if (selfClosing) return;
      this.inCell = true;
      this.type = s.attr('t') ?? 'n';
      const style = s.attr('s');
      this.style = style === undefined ? 0 : Number(style);
      this.value = '';
      this.hasValue = false;
      this.inInline = false;
    } else if (s.is('v')) {
      if (this.inCell && !selfClosing) {
        s.wantText = true;
        this.hasValue = true;
      }
    } else if (s.is('row')) {
      const number = Number(s.attr('r'));
      this.row = Number.isInteger(number) && number > 0 ? number : this.row + 1;
      this.column = -1;
      this.cells.length = 0;
    } else if (s.is('is')) {
      this.inInline = true;
      this.hasValue = true;
    } else if (s.is('rPh')) {
      this.phonetic++;
    } else if (s.is('t')) {
      if (this.inInline && this.phonetic === 0 && !selfClosing) s.wantText = true;
    }
  }

  end(s: XmlScanner): void {
    if (s.is('v') || s.is('t')) {
      s.wantText = false;
    } else if (s.is('c')) {
      this.inCell = false;
      const value = this.cellValue();
      if (value !== null) {
        checkCellPosition(this.row, this.column);
        this.cells[this.column] = value;
      }
    } else if (s.is('row')) {
      if (this.cells.length > 0) this.builder.addRow(this.row, this.cells);
      this.cells.length = 0;
    } else if (s.is('is')) {
      this.inInline = false;
    } else if (s.is('rPh')) {
      this.phonetic--;
    }
  }

  text(text: string): void {
    this.value += text;
  }

  private cellValue(): TableCell {
    if (!this.hasValue) return null;
    const raw = this.value;
    switch (this.type) {
      case 's': {
        const index = Number(raw);
        const text = this.strings.get(index);
        return text === undefined || text === '' ? null : text;
      }
      case 'str':
      case 'inlineStr':
        return raw === '' ? null : decodeOoxmlEscapes(raw);
      case 'b':
        return raw === '' ? null : raw.trim() === '1' || raw.trim() === 'true';
      case 'e':
        return null; // #N/A, #REF!, #DIV/0!…: no value
      case 'd':
        return raw === '' ? null : raw;
      default: {
        if (raw.trim() === '') return null; // a formula without a cached value
        const number = Number(raw);
        if (!Number.isFinite(number)) return raw;
        if (this.dateStyles[this.style] === true) return excelSerialToIso(number, this.date1904) ?? number;
        return number;
      }
    }
  }
}

/** Reads the first worksheet of an XLSX archive into the builder. */
export async function readXlsx(zip: ZipArchive, builder: TableBuilder): Promise<void> {
  const workbook = await readWorkbook(zip);
  const strings = await readSharedStrings(zip, workbook.sharedStringsPart);
  const dateStyles = await readDateStyles(zip, workbook.stylesPart);
  const handler = new SheetHandler(builder, strings, dateStyles, workbook.date1904);
  if (!(await scanZipPart(zip, workbook.sheetPart, handler))) invalid(`its first worksheet (${workbook.sheetPart}) is missing`);
}
