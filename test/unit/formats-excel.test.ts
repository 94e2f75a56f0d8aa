// Spreadsheet table imports (file_type "excel"): XLSX, XLS and ODS fixtures as Excel and
// LibreOffice save them, recognition by content, cell types, and the bad-input cases 17–23 of the
// checklist (zip bombs, corrupt archives, huge declared dimensions, prototype pollution…).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { parseExcel, parseSpreadsheet, type ExcelParseOptions } from '../../lib/formats/excel.js';
import { FeatureFileWriter } from '../../lib/formats/documentFile.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import { MAX_MAP_BYTES } from '../../lib/geojson/sizeLimits.js';
import { parseMapDocument, type MapFeature } from '../../lib/geojson/model.js';
import {
  BOF,
  EOF,
  f64,
  makeCfb,
  makeWorkbookStream,
  record,
  u16,
  u32,
  xlString,
} from '../fixtures/xls/cfbWriter.js';
import { makeOds, makeXlsx, NS, odsCell, odsHeader, REL, sheetXml, simpleXlsx } from '../support/spreadsheetWriter.js';
import { makeZip, zeroBomb, type ZipInput } from '../support/zipWriter.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');
const OPTIONS: ExcelParseOptions = { publicUrl: 'https://maps.example.com' };

const fixture = (name: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

async function parse(bytes: Uint8Array, options: ExcelParseOptions = OPTIONS): Promise<ParsedFile & { kind: string }> {
  const result = await parseSpreadsheet(bytes, options);
  const json = JSON.stringify(result.document);
  expect(json).not.toContain('[object Object]');
  expect(parseMapDocument(JSON.parse(json))).toEqual(result.document);
  return result;
}

async function parseError(bytes: Uint8Array, options: ExcelParseOptions = OPTIONS): Promise<AppError> {
  try {
    await parseSpreadsheet(bytes, options);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    // Every refusal is a deliberate one, not the safety net for unexpected exceptions.
    expect((error as AppError).message).not.toContain('could not be read');
    return error as AppError;
  }
  throw new Error('expected the parse to fail');
}

const coordinates = (feature: MapFeature | undefined) => (feature?.geometry as { coordinates: number[] }).coordinates;
const titles = (result: ParsedFile) => result.document.features.map((feature) => feature.properties.title);

async function withUntouchedPrototype(work: () => Promise<void>): Promise<void> {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  await work();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).x).toBeUndefined();
}

// ---------------------------------------------------------------- XLS builder

const xlsFile = (stream: Uint8Array, name = 'Workbook') => makeCfb([{ name, data: stream }]);

// ================================================================ tests


// Rows of the places workbook as every saved form of it (XLSX, XLS, ODS) must import them.
const LONDON = { title: 'London', group: 3, color: '#00ff00', visible: false, Visited: '2024-03-01T12:00:00' };
const NEW_YORK = { title: '42', group: 4, visible: false };
const TOKYO = { title: '東京', description: 'Tokyo & around', group: 5 };

describe('spreadsheet fixtures', () => {
  it('reads an Excel-saved XLSX: shared and rich strings, dates, formulas, booleans, errors, hyperlinks', async () => {
    const result = await parse(fixture('xlsx/places.xlsx'));
    expect(result.kind).toBe('xlsx');
    expect(titles(result)).toEqual(['Paris', 'London', '42', '東京']);
    const [paris, london, newYork, tokyo] = result.document.features;
    expect(coordinates(paris)).toEqual([2.3522, 48.8566]);
    expect(paris?.properties).toEqual({
      title: 'Paris',
      description: 'Capital of France', // rich text runs concatenated
      url: 'https://en.wikipedia.org/wiki/Paris', // the hyperlink cell's text
      group: 2,
      color: '#ff0000',
      'marker-symbol': 'star',
      image: { id: 'abc123' },
      Visited: '2024-03-01', // built-in date format 14
      Count: '2', // formula 1+1, cached value
    });
    // Formula latitude (cached value), #N/A description (no value), string formula colour
    // without "#", boolean FALSE → hidden, custom date-time format.
    expect(coordinates(london)).toEqual([-0.1278, 51.5074]);
    expect(london?.properties).toEqual(LONDON);
    expect(newYork?.properties).toEqual(NEW_YORK);
    expect(coordinates(tokyo)).toEqual([139.6503, 35.6762]);
    expect(tokyo?.properties).toEqual(TOKYO); // no phonetic run
    expect(result.document.groups).toEqual([
      { id: 1, title: 'Europe' },
      { id: 2, title: 'France', parent: 1 },
      { id: 3, title: 'United Kingdom', parent: 1 },
      { id: 4, title: 'North America' },
      { id: 5, title: 'Asia' },
    ]);
    expect(result.skipped).toEqual([
      { reason: 'row 4 skipped: latitude "abc" is not a number', line: 4 },
      {
        reason:
          'row 7: service_image_url "https://evil.example.org/images/abc123/x…" is not an image URL of this service; the item was imported without an image',
        line: 7,
      },
      { reason: 'row 9 skipped: latitude is empty', line: 9 }, // a formula without a cached value
    ]);
  });

  for (const [kind, file] of [
    ['xls', 'xls/places.xls'],
    ['ods', 'ods/places.ods'],
  ] as const) {
    it(`reads the LibreOffice-saved ${kind.toUpperCase()} of the same workbook`, async () => {
      const result = await parse(fixture(file));
      expect(result.kind).toBe(kind);
      // LibreOffice recalculated the formula of row 9 (=A2+1) before saving.
      expect(titles(result)).toEqual(['Paris', 'London', '42', '東京', 'Paris']);
      const [paris, london, newYork, tokyo, row9] = result.document.features;
      expect(paris?.properties).toEqual({
        title: 'Paris',
        description: 'Capital of France',
        url: 'https://en.wikipedia.org/wiki/Paris',
        group: 2,
        color: '#ff0000',
        'marker-symbol': 'star',
        image: { id: 'abc123' },
        Visited: '2024-03-01',
        Count: '2',
      });
      expect(coordinates(london)).toEqual([-0.1278, 51.5074]);
      expect(london?.properties).toEqual(LONDON);
      expect(newYork?.properties).toEqual(NEW_YORK);
      expect(tokyo?.properties).toEqual(TOKYO);
      expect(coordinates(row9)).toEqual([3, 49.8566]);
      expect(result.skipped.map((item) => item.line)).toEqual([4, 7]);
    });
  }

  it('parseExcel is the FormatParser of file_type "excel"', async () => {
    const result = await parseExcel(fixture('xlsx/places.xlsx'), OPTIONS);
    expect(result.document.features).toHaveLength(4);
    expect(result.media).toEqual([]);
    expect(Object.keys(result).sort()).toEqual(['document', 'media', 'skipped']);
  });
});

describe('recognition by content', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ['an empty file', new Uint8Array(), /an empty file/],
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), /a PNG image/],
    ['a PDF', new Uint8Array(Buffer.from('%PDF-1.7\n')), /a PDF document/],
    ['a CSV', new Uint8Array(Buffer.from('lat,lon\n1,2\n')), /text \(a CSV file is imported with file_type "csv"\)/],
    ['a KML', new Uint8Array(Buffer.from('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"/>')), /a KML document/],
    ['a Word document', makeZip([{ name: 'word/document.xml', data: '<w/>' }]), /a Word document/],
    ['a KMZ', makeZip([{ name: 'doc.kml', data: '<kml/>' }]), /a KMZ archive/],
    ['an ODT', makeOds('', 'application/vnd.oasis.opendocument.text'), /OpenDocument file of another kind/],
    ['an XLSB', makeZip([{ name: 'xl/workbook.bin', data: 'x' }]), /\.xlsb/],
    ['random bytes', new Uint8Array([0x00, 0x01, 0x02, 0xfe, 0xff, 0x10]), /binary data/],
    ['an empty zip', makeZip([]), /a zip archive that holds no spreadsheet/],
    // A large mimetype is not inflated to be compared with 46 characters (one of 250 MB took 1.4 s
    // and 750 MB); read, this one would be refused as over the inflate budget.
    ['a zip with a huge mimetype', makeZip([{ name: 'mimetype', data: 'x', size: 300 * 1024 * 1024 }]), /a zip archive that holds no spreadsheet/],
    [
      'an Excel 2003 XML workbook',
      new Uint8Array(Buffer.from('<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>')),
      /Excel 2003 XML/,
    ],
    ['a Word .doc', makeCfb([{ name: 'WordDocument', data: new Uint8Array(600) }]), /OLE2 compound document/],
  ];
  for (const [label, bytes, message] of cases) {
    it(`refuses ${label} with unsupported_type`, async () => {
      const error = await parseError(bytes);
      expect(error.code).toBe('unsupported_type');
      expect(error.message).toMatch(message);
    });
  }

  it('does not care about the file name or the declared type: an ODS in disguise is an ODS', async () => {
    const ods = makeOds(`<table:table table:name="T">${odsHeader}<table:table-row>${odsCell(1)}${odsCell(2)}${odsCell('x')}</table:table-row></table:table>`);
    expect((await parse(ods)).kind).toBe('ods');
  });
});

describe('XLSX cells and workbook structure', () => {
  it('handles every cell type in the coordinate and title columns without [object Object]', async () => {
    const styles = `<?xml version="1.0"?><styleSheet xmlns="${NS}"><numFmts count="1"><numFmt numFmtId="170" formatCode="[$-409]d\\-mmm\\-yy;@"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="170"/><xf numFmtId="10"/></cellXfs></styleSheet>`;
    const rows = [
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>',
      // Formula with cached number, rich inline string, percent-styled number (not a date).
      '<row r="2"><c r="A2"><f>10/2</f><v>5</v></c><c r="B2" s="2"><v>0.5</v></c><c r="C2" t="inlineStr"><is><r><t>Rich </t></r><r><rPr><b/></rPr><t>inline</t></r></is></c><c r="D2" t="str"><f>"x"&amp;"y"</f><v>xy</v></c></row>',
      // Error in latitude, boolean in longitude, date (custom format) as title.
      '<row r="3"><c r="A3" t="e"><f>NA()</f><v>#N/A</v></c><c r="B3" t="b"><v>1</v></c><c r="C3" s="1"><v>45000</v></c></row>',
      // ISO date cell (t="d") as latitude, number as title.
      '<row r="4"><c r="A4" t="d"><v>2024-01-01T00:00:00</v></c><c r="B4"><v>2</v></c><c r="C4"><v>3.25</v></c></row>',
      // Boolean and escaped control character in text; latitude as numeric text.
      '<row r="5"><c r="A5" t="s"><v>4</v></c><c r="B5" t="s"><v>5</v></c><c r="C5" t="s"><v>6</v></c><c r="D5" t="b"><v>0</v></c></row>',
    ].join('');
    const result = (await parse(
      makeXlsx({
        sheets: [{ xml: sheetXml(rows) }],
        styles,
        sharedStrings: ['lat', 'lon', 'title', 'note', ' 12.5 ', '-7,25', 'Line_x000D_break _x005F_x0041_'],
      }),
    ));
    expect(result.document.features.map(coordinates)).toEqual([
      [0.5, 5],
      [-7.25, 12.5],
    ]);
    expect(result.document.features.map((feature) => feature.properties)).toEqual([
      { title: 'Rich inline', note: 'xy' },
      { title: 'Line\rbreak _x0041_', note: 'FALSE' },
    ]);
    expect(result.skipped).toEqual([
      { reason: 'row 3 skipped: latitude is empty; longitude TRUE is not a number', line: 3 },
      { reason: 'row 4 skipped: latitude "2024-01-01T00:00:00" is not a number', line: 4 },
    ]);
  });

  it('imports the first visible worksheet only (hidden sheets and chart sheets are passed over)', async () => {
    const sheet = (title: string) =>
      sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>lat</t></is></c><c r="B1" t="inlineStr"><is><t>lon</t></is></c><c r="C1" t="inlineStr"><is><t>name</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c><c r="C2" t="inlineStr"><is><t>${title}</t></is></c></row>`);
    const result = (await parse(
      makeXlsx({
        sheets: [{ xml: '<chartsheet/>', chart: true }, { xml: sheet('hidden'), hidden: true }, { xml: sheet('visible') }, { xml: sheet('third') }],
      }),
    ));
    expect(titles(result)).toEqual(['visible']);
  });

  it('reads dates of the 1904 date system', async () => {
    const styles = `<?xml version="1.0"?><styleSheet xmlns="${NS}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`;
    const xml = sheetXml(
      '<row r="1"><c t="inlineStr"><is><t>lat</t></is></c><c t="inlineStr"><is><t>lon</t></is></c><c t="inlineStr"><is><t>when</t></is></c></row><row r="2"><c><v>1</v></c><c><v>2</v></c><c s="1"><v>0</v></c></row>',
    );
    const result = await parse(makeXlsx({ sheets: [{ xml }], styles, workbookPr: '<workbookPr date1904="1"/>' }));
    expect(result.document.features[0]?.properties).toEqual({ when: '1904-01-01' });
  });

  it('ignores the declared dimension of a small sheet', async () => {
    const result = await parse(simpleXlsx([['lat', 'lon'], [1, 2]], '<dimension ref="A1:XFD1048576"/>'));
    expect(result.document.features).toHaveLength(1);
  });

  it('accepts a workbook without shared strings and styles parts', async () => {
    const bytes = makeZip([
      { name: 'xl/workbook.xml', data: `<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="A" sheetId="1" r:id="r1"/></sheets></workbook>` },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${REL}/worksheet" Target="worksheets/a.xml"/></Relationships>`,
      },
      { name: 'xl/worksheets/a.xml', data: sheetXml('<row><c t="inlineStr"><is><t>lat</t></is></c><c t="inlineStr"><is><t>lon</t></is></c></row><row><c><v>3</v></c><c><v>4</v></c></row>') },
    ]);
    const result = await parse(bytes);
    expect(coordinates(result.document.features[0])).toEqual([4, 3]);
    expect(result.skipped).toEqual([]);
  });

  it('names the missing coordinate columns of a sheet', async () => {
    const error = await parseError(simpleXlsx([['name', 'x'], ['a', 1]]));
    expect(error.code).toBe('missing_coordinate_columns');
    expect(error.message).toContain('lat, latitude');
  });

  it('refuses a workbook without any row', async () => {
    expect((await parseError(simpleXlsx([]))).code).toBe('empty_table');
  });
});

describe('ODS cells', () => {
  it('reads typed values, paragraphs, spaces, repeats, and leaves annotations and errors out', async () => {
    const table = `<table:table table:name="Sheet1">
      <table:table-column table:number-columns-repeated="5"/>
      <table:table-header-rows>${`<table:table-row>${odsCell('lat')}${odsCell('lon')}${odsCell('name')}${odsCell('when')}${odsCell('visible')}</table:table-row>`}</table:table-header-rows>
      <table:table-row table:number-rows-repeated="2">${odsCell(10)}${odsCell(20)}<table:table-cell office:value-type="string"><office:annotation><text:p>a comment</text:p></office:annotation><text:p>Two<text:s text:c="3"/>spaces</text:p><text:p>second <text:span>line</text:span></text:p></table:table-cell><table:table-cell office:value-type="date" office:date-value="2024-03-01"/><table:table-cell office:value-type="boolean" office:boolean-value="false"><text:p>FALSE</text:p></table:table-cell></table:table-row>
      <table:table-row table:number-rows-repeated="1000">${'<table:table-cell table:number-columns-repeated="1024"/>'}</table:table-row>
      <table:table-row><table:table-cell table:number-columns-repeated="2" office:value-type="percentage" office:value="0.5"/><table:table-cell office:value-type="string" office:string-value="" calcext:value-type="error"><text:p>#N/A</text:p></table:table-cell><table:table-cell office:value-type="time" office:time-value="PT13H45M00S"/><table:covered-table-cell/></table:table-row>
      <table:table-row table:number-rows-repeated="1047571"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
    </table:table><table:table table:name="Second">${odsHeader}<table:table-row>${odsCell(1)}${odsCell(1)}${odsCell('second sheet')}</table:table-row></table:table>`;
    const result = await parse(makeOds(table));
    expect(result.document.features.map((feature) => feature.properties)).toEqual([
      { title: 'Two   spaces\nsecond line', when: '2024-03-01', visible: false },
      { title: 'Two   spaces\nsecond line', when: '2024-03-01', visible: false },
      { when: '13:45:00' },
    ]);
    expect(result.document.features.map(coordinates)).toEqual([
      [20, 10],
      [20, 10],
      [0.5, 0.5],
    ]);
    expect(result.skipped).toEqual([]);
  });

  it('refuses an ODS without content.xml', async () => {
    const bytes = makeZip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', store: true }]);
    expect((await parseError(bytes)).code).toBe('invalid_spreadsheet');
  });
});

describe('XLS records', () => {
  it('reads numbers, RK and MULRK values, booleans, formulas and their cached strings', async () => {
    const position = (row: number, column: number, xf = 15) => [...u16(row), ...u16(column), ...u16(xf)];
    const rk = (value: number) => u32((Math.round(value * 100) << 2) | 3); // an integer × 100, with the ÷100 flag
    const stream = makeWorkbookStream({
      sheets: [
        {
          cells: [
            { row: 0, column: 0, value: 'lat' },
            { row: 0, column: 1, value: 'lon' },
            { row: 0, column: 2, value: 'name' },
            { row: 0, column: 3, value: 'visible' },
            { row: 1, column: 2, value: 'Number + RK' },
          ],
          records: [
            record(0x0203, position(1, 0), f64(48.8566)),
            record(0x027e, position(1, 1), rk(2.35)),
            record(0x0205, position(1, 3), [0, 0]), // FALSE
            // Row 3: MULRK for lat/lon, formula with a string result (STRING record), error cell.
            record(0x00bd, u16(2), u16(0), u16(15), rk(-33.87), u16(15), rk(151.21), u16(1)),
            record(0x0006, position(2, 2), [0, 0, 0, 0, 0, 0, 0xff, 0xff], u16(0), u32(0), u16(0)),
            record(0x0207, xlString('Formula text')),
            record(0x0205, position(2, 3), [0x2a, 1]), // #N/A
            // Row 4: formula number latitude, formula boolean, formula error.
            record(0x0006, position(3, 0), f64(1.5), u16(0), u32(0), u16(0)),
            record(0x0006, position(3, 1), [2, 0, 0, 0, 0, 0, 0xff, 0xff], u16(0), u32(0), u16(0)), // error
            record(0x0006, position(3, 3), [1, 0, 1, 0, 0, 0, 0xff, 0xff], u16(0), u32(0), u16(0)), // TRUE
            // An embedded chart substream: its records are not cells of the sheet.
            BOF(0x0020),
            record(0x0203, position(5, 0), f64(9)),
            EOF(),
          ],
        },
      ],
    });
    const result = await parse(xlsFile(stream));
    expect(result.kind).toBe('xls');
    expect(result.document.features.map(coordinates)).toEqual([
      [2.35, 48.8566],
      [151.21, -33.87],
    ]);
    expect(result.document.features.map((feature) => feature.properties)).toEqual([
      { title: 'Number + RK', visible: false },
      { title: 'Formula text' },
    ]);
    expect(result.skipped).toEqual([{ reason: 'row 4 skipped: longitude is empty', line: 4 }]);
  });

  it('reads shared strings that continue across CONTINUE records, switching width', async () => {
    // Header strings, then one string of 6 characters: "ab" compressed, "çd€f" continued as UTF-16.
    const head = [...xlString('lat'), ...xlString('lon'), ...xlString('name')];
    const sst = [
      record(0x00fc, u32(4), u32(4), head, [...u16(6), 0, ...Buffer.from('ab', 'latin1')]),
      record(0x003c, [1], [...Buffer.from('çd€f', 'utf16le')]),
    ];
    const position = (row: number, column: number) => [...u16(row), ...u16(column), ...u16(15)];
    const stream = makeWorkbookStream({
      sst,
      sheets: [
        {
          records: [
            record(0x00fd, position(0, 0), u32(0)),
            record(0x00fd, position(0, 1), u32(1)),
            record(0x00fd, position(0, 2), u32(2)),
            record(0x0203, position(1, 0), f64(1)),
            record(0x0203, position(1, 1), f64(2)),
            record(0x00fd, position(1, 2), u32(3)),
          ],
        },
      ],
    });
    expect(titles((await parse(xlsFile(stream))))).toEqual(['abçd€f']);
  });

  it('imports the first visible sheet', async () => {
    const sheet = (title: string) => ({
      cells: [
        { row: 0, column: 0, value: 'lat' },
        { row: 0, column: 1, value: 'lon' },
        { row: 0, column: 2, value: 'name' },
        { row: 1, column: 0, value: 1 },
        { row: 1, column: 1, value: 2 },
        { row: 1, column: 2, value: title },
      ],
    });
    const stream = makeWorkbookStream({ sheets: [{ ...sheet('hidden'), hidden: true }, sheet('visible'), sheet('third')] });
    expect(titles((await parse(xlsFile(stream))))).toEqual(['visible']);
  });

  it('refuses encrypted workbooks, Excel 5 workbooks and broken compound files clearly', async () => {
    const sheets = [{ cells: [{ row: 0, column: 0, value: 'lat' }] }];
    const encrypted = await parseError(xlsFile(makeWorkbookStream({ globals: [record(0x002f, u16(1), new Array(52).fill(0))], sheets })));
    expect(encrypted.code).toBe('encrypted_spreadsheet');
    const ooxmlEncrypted = (await parseError(
      makeCfb([
        { name: 'EncryptionInfo', data: new Uint8Array(600) },
        { name: 'EncryptedPackage', data: new Uint8Array(600) },
      ]),
    ));
    expect(ooxmlEncrypted.code).toBe('encrypted_spreadsheet');
    expect((await parseError(xlsFile(makeWorkbookStream({ sheets, version: 0x0500 })))).code).toBe('unsupported_type');
    expect((await parseError(xlsFile(new Uint8Array(600), 'Book'))).message).toMatch(/Excel 5\.0\/95/);

    const good = makeWorkbookStream({ sheets });
    // Layout of makeCfb: sector 0 the allocation table, sector 1 the directory, then the streams.
    const looping = makeCfb([{ name: 'Workbook', data: good }], {
      editFat: (fat) => {
        fat[1] = 1; // the directory's chain points at itself
      },
    });
    expect((await parseError(looping)).code).toBe('invalid_spreadsheet');
    const outside = makeCfb([{ name: 'Workbook', data: good }], {
      editFat: (fat) => {
        fat[fat.indexOf(0xfffffffe)] = 0x00ffffff;
      },
    });
    expect((await parseError(outside)).code).toBe('invalid_spreadsheet');
    const truncated = xlsFile(good).subarray(0, 700);
    expect((await parseError(truncated)).code).toBe('invalid_spreadsheet');
    expect((await parseError(fixture('xls/places.xls').subarray(0, 520))).code).toBe('invalid_spreadsheet');
  });

  it('23: prototype-pollution strings in an XLS are plain data', async () => {
    await withUntouchedPrototype(async () => {
      const stream = makeWorkbookStream({
        sheets: [
          {
            cells: [
              { row: 0, column: 0, value: 'lat' },
              { row: 0, column: 1, value: 'lon' },
              { row: 0, column: 2, value: '__proto__' },
              { row: 0, column: 3, value: 'constructor' },
              { row: 0, column: 4, value: 'x' },
              { row: 1, column: 0, value: 1 },
              { row: 1, column: 1, value: 2 },
              { row: 1, column: 2, value: '{"polluted":1}' },
              { row: 1, column: 3, value: 'prototype' },
              { row: 1, column: 4, value: '__proto__' },
            ],
          },
        ],
      });
      const result = await parse(xlsFile(stream));
      expect(result.document.features[0]?.properties).toEqual({ x: '__proto__' });
    });
  });
});

describe('archive bad input (checklist 17–20)', () => {
  it('17: an entry declaring 1 kB that inflates to 1 GB stops at the byte budget', async () => {
    const bomb = zeroBomb(1024);
    const bytes = makeXlsx({
      sheets: [{ xml: sheetXml('') }],
      replace: { 'xl/sharedStrings.xml': { name: 'xl/sharedStrings.xml', deflated: bomb, size: 1024, crc: 0 } },
    });
    expect(bytes.length).toBeLessThan(2_000_000);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const error = await parseError(bytes);
    expect(error.code).toBe('archive_too_large');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(800 * 1024 * 1024);
  });

  it('17: honest but huge declared sizes are refused before inflating', async () => {
    const bytes = makeXlsx({
      sheets: [{ xml: sheetXml('') }],
      replace: { 'xl/sharedStrings.xml': { name: 'xl/sharedStrings.xml', deflated: zeroBomb(1), size: 4_000_000_000, crc: 0 } },
    });
    const started = performance.now();
    expect((await parseError(bytes)).code).toBe('archive_too_large');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('17: overlapping entries share one budget (the budget counts every inflated byte)', async () => {
    // A valid shared strings part of 3 MB (mostly spaces); the sheet is the same bytes again.
    const big = `<sst xmlns="${NS}">${' '.repeat(3 * 1024 * 1024)}</sst>`;
    const entries: ZipInput[] = [
      { name: 'xl/workbook.xml', data: `<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="A" sheetId="1" r:id="r1"/></sheets></workbook>` },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="r2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="r3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
      },
      { name: 'xl/sharedStrings.xml', data: big },
      { name: 'xl/styles.xml', aliasOf: 'xl/sharedStrings.xml' },
      { name: 'xl/worksheets/sheet1.xml', aliasOf: 'xl/sharedStrings.xml' },
    ];
    const bytes = makeZip(entries);
    expect((await parseError(bytes, { ...OPTIONS, inflateBudget: 8 * 1024 * 1024 })).code).toBe('archive_too_large');
    // With room for all three reads the same archive is simply a sheet without rows.
    expect((await parseError(bytes, { ...OPTIONS, inflateBudget: 16 * 1024 * 1024 })).code).toBe('empty_table');
  });

  it('18: entry names like ../../x, /abs, __proto__ and toString are just names', async () => {
    await withUntouchedPrototype(async () => {
      const base = simpleXlsx([['lat', 'lon'], [1, 2]]);
      const extra: ZipInput[] = ['../../x.xml', '/abs/doc.xml', '__proto__', 'toString', 'constructor', 'hasOwnProperty'].map((name) => ({
        name,
        data: '{"polluted": true}',
      }));
      const bytes = makeXlsx({
        sheets: [{ xml: sheetXml('<row><c t="inlineStr"><is><t>lat</t></is></c><c t="inlineStr"><is><t>lon</t></is></c></row><row><c><v>1</v></c><c><v>2</v></c></row>') }],
        extra,
      });
      expect((await parse(base)).document.features).toHaveLength(1);
      expect((await parse(bytes)).document.features).toHaveLength(1);
    });
    expect(fs.existsSync(path.resolve('x.xml'))).toBe(false);
  });

  it('20: corrupt archives are invalid_spreadsheet, never a crash', async () => {
    const good = simpleXlsx([['lat', 'lon'], [1, 2]]);
    const cases: Uint8Array[] = [];
    cases.push(good.subarray(0, Math.floor(good.length / 2))); // truncated: no central directory
    cases.push(good.subarray(0, good.length - 10)); // truncated end record
    const badDirectory = new Uint8Array(good);
    const view = new DataView(badDirectory.buffer);
    view.setUint32(badDirectory.length - 6, badDirectory.length + 100, true); // directory offset past the end
    cases.push(badDirectory);
    // A CRC mismatch and garbage deflate data.
    cases.push(makeXlsx({ sheets: [{ xml: sheetXml('') }], replace: { 'xl/workbook.xml': { name: 'xl/workbook.xml', data: '<workbook/>', crc: 1234 } } }));
    cases.push(
      makeXlsx({
        sheets: [{ xml: sheetXml('') }],
        replace: { 'xl/workbook.xml': { name: 'xl/workbook.xml', deflated: new Uint8Array([0xff, 0xff, 0xff, 0x00, 0x12]), size: 20, crc: 0 } },
      }),
    );
    // A declared size that is smaller than the data.
    cases.push(makeXlsx({ sheets: [{ xml: sheetXml('') }], replace: { 'xl/workbook.xml': { name: 'xl/workbook.xml', data: '<workbook/>', size: 3 } } }));
    // An encrypted entry (traditional PKWARE encryption flag).
    cases.push(makeXlsx({ sheets: [{ xml: sheetXml('') }], replace: { 'xl/workbook.xml': { name: 'xl/workbook.xml', data: '<workbook/>', flags: 1 } } }));
    const codes = await Promise.all(cases.map(async (bytes) => (await parseError(bytes)).code));
    expect(codes).toEqual([
      'invalid_spreadsheet',
      'invalid_spreadsheet',
      'invalid_spreadsheet',
      'invalid_spreadsheet',
      'invalid_spreadsheet',
      'invalid_spreadsheet',
      'encrypted_spreadsheet',
    ]);
  });

  it('20: a zip with too many entries is refused', async () => {
    const entries: ZipInput[] = [];
    for (let index = 0; index < 20_001; index++) entries.push({ name: `f${index}`, data: '', store: true });
    expect((await parseError(makeZip(entries))).code).toBe('archive_too_large');
  });
});

describe('spreadsheet bad input (checklist 21–23)', () => {
  it('21: a ~10 kB XLSX declaring A1:XFD1048576 with one cell at XFD1048576 is sheet_too_large, fast', async () => {
    const rows = `<row r="1"><c r="A1" t="inlineStr"><is><t>lat</t></is></c><c r="B1" t="inlineStr"><is><t>lon</t></is></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>`;
    const bytes = makeXlsx({ sheets: [{ xml: sheetXml(rows, '<dimension ref="A1:XFD1048576"/>') }] });
    expect(bytes.length).toBeLessThan(10_000);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const error = await parseError(bytes);
    expect(performance.now() - started).toBeLessThan(500);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(error.code).toBe('sheet_too_large');
    expect(error.message).toContain('row 1048576');
  });

  it('21: a value beyond column 1,000 or row 1,000,000 is sheet_too_large', async () => {
    const wide = `<row r="1"><c r="A1" t="inlineStr"><is><t>lat</t></is></c><c r="B1" t="inlineStr"><is><t>lon</t></is></c></row><row r="2"><c r="ALM2"><v>1</v></c></row>`;
    const error = await parseError(makeXlsx({ sheets: [{ xml: sheetXml(wide) }] }));
    expect(error.code).toBe('sheet_too_large');
    expect(error.message).toContain('column ALM');
    const ok = `<row r="1"><c r="A1" t="inlineStr"><is><t>lat</t></is></c><c r="B1" t="inlineStr"><is><t>lon</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>1</v></c><c r="ALL2"><v>1</v></c><c r="XFD2"/></row>`;
    expect((await parse(makeXlsx({ sheets: [{ xml: sheetXml(ok) }] }))).document.features).toHaveLength(1);
    // ODS: repeated cells and rows are only expanded when they hold a value.
    const odsWide = `<table:table>${odsHeader}<table:table-row><table:table-cell table:number-columns-repeated="16384" office:value-type="float" office:value="1"/></table:table-row></table:table>`;
    expect((await parseError(makeOds(odsWide))).code).toBe('sheet_too_large');
    const odsTall = `<table:table>${odsHeader}<table:table-row table:number-rows-repeated="1048575">${odsCell(1)}${odsCell(2)}</table:table-row></table:table>`;
    const started = performance.now();
    expect((await parseError(makeOds(odsTall))).code).toBe('sheet_too_large');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('22: cells whose values are objects in other readers are text or nothing here', async () => {
    // Covered by the fixtures (rich text, hyperlink, formula, error, date, boolean); here the
    // same kinds sit in the latitude column.
    const rows = [
      '<row r="1"><c t="inlineStr"><is><t>lat</t></is></c><c t="inlineStr"><is><t>lon</t></is></c><c t="inlineStr"><is><t>name</t></is></c></row>',
      '<row r="2"><c t="inlineStr"><is><r><t>4</t></r><r><t>5</t></r></is></c><c><v>1</v></c><c t="inlineStr"><is><t>rich</t></is></c></row>',
      '<row r="3"><c t="e"><v>#REF!</v></c><c><v>1</v></c><c t="inlineStr"><is><t>error</t></is></c></row>',
      '<row r="4"><c t="b"><v>1</v></c><c><v>1</v></c><c t="inlineStr"><is><t>boolean</t></is></c></row>',
    ].join('');
    const result = await parse(makeXlsx({ sheets: [{ xml: sheetXml(rows) }] }));
    expect(titles(result)).toEqual(['rich']);
    expect(coordinates(result.document.features[0])).toEqual([1, 45]);
    expect(result.skipped.map((item) => item.reason)).toEqual([
      'row 3 skipped: latitude is empty',
      'row 4 skipped: latitude TRUE is not a number',
    ]);
  });

  it('23: prototype-pollution payloads in an XLSX and an ODS leave Object.prototype alone', async () => {
    await withUntouchedPrototype(async () => {
      const rows =
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>' +
        '<row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c><c r="C2" t="s"><v>5</v></c><c r="D2" t="s"><v>5</v></c><c r="E2" t="s"><v>2</v></c></row>' +
        '<row r="3"><c r="A3"><v>1</v></c><c r="B3"><v>2</v></c><c r="C3" t="s"><v>999999999</v></c><c r="__proto__"><v>7</v></c></row>';
      const result = (await parse(
        makeXlsx({
          sheets: [{ xml: sheetXml(rows) }],
          sharedStrings: ['lat', 'lon', '__proto__', 'constructor', 'polluted', '{"polluted":"yes"}'],
        }),
      ));
      expect(result.document.features.map((feature) => feature.properties)).toEqual([{ polluted: '__proto__' }, {}]);
      const ods = makeOds(
        `<table:table table:name="__proto__"><table:table-row>${odsCell('lat')}${odsCell('lon')}${odsCell('__proto__')}${odsCell('prototype')}</table:table-row><table:table-row>${odsCell(1)}${odsCell(2)}${odsCell('x')}${odsCell('y')}</table:table-row></table:table>`,
      );
      expect((await parse(ods)).document.features[0]?.properties).toEqual({});
    });
  });

  it('23: long malformed strings finish quickly with an error', async () => {
    const unclosed = makeXlsx({
      sheets: [{ xml: sheetXml('') }],
      sharedStrings: `<sst xmlns="${NS}"><si><t a="${'x'.repeat(5_000_000)}></t></si></sst>`,
    });
    let started = performance.now();
    expect((await parseError(unclosed)).code).toBe('invalid_spreadsheet');
    expect(performance.now() - started).toBeLessThan(2_000);
    const styles = `<styleSheet xmlns="${NS}"><numFmts><numFmt numFmtId="164" formatCode="${'[[[[&quot;\\'.repeat(200_000)}"/></numFmts><cellXfs><xf numFmtId="164"/></cellXfs></styleSheet>`;
    started = performance.now();
    const result = await parse(makeXlsx({ sheets: [{ xml: sheetXml('<row><c t="inlineStr"><is><t>lat</t></is></c><c t="inlineStr"><is><t>lon</t></is></c></row><row><c s="0"><v>1</v></c><c><v>2</v></c></row>') }], styles }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.document.features).toHaveLength(1);
  });

  it('refuses DOCTYPEs and entity declarations (billion laughs) without expanding anything', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><sst xmlns="${NS}"><si><t>&c;</t></si></sst>`;
    const error = await parseError(makeXlsx({ sheets: [{ xml: sheetXml('') }], sharedStrings: laughs }));
    expect(error.code).toBe('invalid_spreadsheet');
    expect(error.message).toContain('DOCTYPE');
    const undefinedEntity = (await parseError(makeXlsx({ sheets: [{ xml: sheetXml('') }], sharedStrings: `<sst><si><t>&xxe;</t></si></sst>` })));
    expect(undefinedEntity.message).toContain('&xxe;');
  });

  it('refuses malformed and truncated XML instead of importing part of a sheet', async () => {
    const header = '<row r="1"><c t="inlineStr"><is><t>lat</t></is></c><c t="inlineStr"><is><t>lon</t></is></c></row><row r="2"><c><v>1</v></c><c><v>2</v></c></row>';
    const full = sheetXml(header);
    for (const xml of [
      full.slice(0, full.length - 30), // truncated
      full.replace('</sheetData>', ''), // an element never closed
      full.replace('<c><v>1</v></c>', '<c><v>1</c></v>'), // crossed tags
      full.replace('<row r="2">', '<row r=2>'), // unquoted attribute
      `${full}<extra/>`, // two roots
      full.replace('<c><v>1</v></c>', '<c><v>1 & 2</v></c>'), // a bare &
    ]) {
      const error = await parseError(makeXlsx({ sheets: [{ xml }] }));
      expect(error.code, xml.slice(-80)).toBe('invalid_spreadsheet');
    }
  });

  it('refuses nesting deeper than the limit', async () => {
    const deep = `<sst>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</sst>`;
    const error = await parseError(makeXlsx({ sheets: [{ xml: sheetXml('') }], sharedStrings: deep }));
    expect(error.code).toBe('invalid_spreadsheet');
    expect(error.message).toContain('nested');
  });

  it('strips NUL characters and lone surrogates from cell text', async () => {
    const result = (await parse(simpleXlsx([['lat', 'lon', 'name'], [1, 2, 'a&#0;b&#xD800;c\u0000']])));
    expect(result.document.features[0]?.properties.title).toBe('abc');
  });
});

/** Parses into a document file, as the parser thread does; the error, and how large the file got. */
async function parseIntoFile(bytes: Uint8Array): Promise<{ error: AppError; fileBytes: number; ms: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-budget-'));
  const file = path.join(dir, 'document');
  const writer = new FeatureFileWriter(file);
  const started = performance.now();
  try {
    await parseSpreadsheet(bytes, { ...OPTIONS, sink: writer });
    throw new Error('expected the parse to fail');
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    writer.abandon();
    return { error, fileBytes: fs.statSync(file).size, ms: performance.now() - started };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('what an import produces is held to the budget of a map, however the sheet expands (issue 8)', () => {
  const long = (n: number) => 'x'.repeat(n);

  it('a 1 kB ODS repeating a row of 50,000 characters 400,000 times stops at the map budget, in moments', async () => {
    const table = `<table:table>${odsHeader}<table:table-row table:number-rows-repeated="400000">${odsCell(1)}${odsCell(2)}${odsCell(long(50_000))}</table:table-row></table:table>`;
    const ods = makeOds(table);
    expect(ods.length).toBeLessThan(2_000);
    const { error, fileBytes, ms } = await parseIntoFile(ods);
    expect(error.code).toBe('map_too_large');
    expect(error.message).toMatch(/at most 64 MB/);
    expect(fileBytes).toBeLessThanOrEqual(MAX_MAP_BYTES);
    expect(ms).toBeLessThan(15_000);
  });

  it('an XLSX of 3,000 rows pointing at one 90,000-character shared string stops at the map budget', async () => {
    const rows = ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'];
    for (let r = 2; r <= 3001; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>1</v></c><c r="B${r}"><v>2</v></c><c r="C${r}" t="s"><v>3</v></c></row>`);
    const xlsx = makeXlsx({ sheets: [{ xml: sheetXml(rows.join('')) }], sharedStrings: ['lat', 'lon', 'name', long(90_000)] });
    expect(xlsx.length).toBeLessThan(60_000);
    const { error, fileBytes } = await parseIntoFile(xlsx);
    expect(error.code).toBe('map_too_large');
    expect(fileBytes).toBeLessThanOrEqual(MAX_MAP_BYTES);
  });

  it('a row repeating one long string in a thousand columns is refused before the item is built', async () => {
    const names = Array.from({ length: 998 }, (_, i) => `<c t="inlineStr"><is><t>c${i}</t></is></c>`).join('');
    const header = `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>${names}</row>`;
    const cells = Array.from({ length: 998 }, () => `<c t="s"><v>2</v></c>`).join('');
    const xlsx = makeXlsx({ sheets: [{ xml: sheetXml(`${header}<row r="2"><c><v>1</v></c><c><v>2</v></c>${cells}</row>`) }], sharedStrings: ['lat', 'lon', long(90_000)] });
    const { error, fileBytes } = await parseIntoFile(xlsx);
    expect(error.code).toBe('feature_too_large');
    expect(error.message).toMatch(/^Row 2 would be larger than 32 MB/);
    expect(fileBytes).toBe(0);
    // ODS: one cell repeated across the columns.
    const odsNames = `<table:table-row>${odsCell('lat')}${odsCell('lon')}${odsCell('name', ' table:number-columns-repeated="997"')}</table:table-row>`;
    const ods = makeOds(`<table:table>${odsNames}<table:table-row>${odsCell(1)}${odsCell(2)}${odsCell(long(50_000), ' table:number-columns-repeated="997"')}</table:table-row></table:table>`);
    expect((await parseIntoFile(ods)).error.code).toBe('feature_too_large');
  });

  it('holds every table reader to 100,000 characters per cell, spaces repeated by <text:s> included', async () => {
    const spaces = '<text:s text:c="1000"/>'.repeat(101);
    const ods = makeOds(`<table:table>${odsHeader}<table:table-row>${odsCell(1)}${odsCell(2)}<table:table-cell office:value-type="string"><text:p>a${spaces}</text:p></table:table-cell></table:table-row></table:table>`);
    const odsError = await parseError(ods);
    expect(odsError.code).toBe('cell_too_large');
    expect(odsError.message).toBe('row 2: the cell in column C holds more than 100000 characters');
    const xlsx = simpleXlsx([['lat', 'lon', 'name'], [1, 2, long(100_001)]]);
    expect((await parseError(xlsx)).message).toBe('row 2: the cell in column C holds more than 100000 characters');
    const header = simpleXlsx([['lat', 'lon', long(100_001)], [1, 2, 'x']]);
    expect((await parseError(header)).message).toBe('row 1: the cell in column C holds more than 100000 characters');
    expect((await parse(simpleXlsx([['lat', 'lon', 'name'], [1, 2, long(100_000)]]))).document.features).toHaveLength(1);
  });
});

describe('spreadsheet speed', () => {
  it('reads a 20,000-row XLSX in well under a few seconds', async () => {
    const rows: string[] = ['<row r="1"><c t="s"><v>0</v></c><c t="s"><v>1</v></c><c t="s"><v>2</v></c><c t="s"><v>3</v></c></row>'];
    for (let index = 2; index <= 20_001; index++) {
      rows.push(`<row r="${index}"><c r="A${index}"><v>${(index % 170) - 85}.5</v></c><c r="B${index}"><v>${(index % 340) - 170}.25</v></c><c r="C${index}" t="s"><v>${4 + (index % 50)}</v></c><c r="D${index}" t="s"><v>${4 + (index % 7)}</v></c></row>`);
    }
    const strings = ['lat', 'lon', 'title', 'group'];
    for (let index = 0; index < 50; index++) strings.push(`Name ${index}`);
    const bytes = makeXlsx({ sheets: [{ xml: sheetXml(rows.join('')) }], sharedStrings: strings });
    const started = performance.now();
    const result = await parseSpreadsheet(bytes, OPTIONS);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.document.features).toHaveLength(20_000);
  });
});
