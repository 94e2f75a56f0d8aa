// CSV table imports: fixtures in the shapes real tools write, the column rules shared with the
// spreadsheets (lib/formats/table.ts), and the bad-input cases 25–29 of the checklist.
import v8 from 'node:v8';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import iconv from 'iconv-lite';
import { decodeCsv, parseCsv } from '../../lib/formats/csv.js';
import { detectDelimiter, readCsvRecords } from '../../lib/formats/csvRecords.js';
import { TableBuilder } from '../../lib/formats/table.js';
import { normaliseColor, ServiceImageUrls } from '../../lib/formats/tableCells.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import { parseMapDocument, type MapFeature } from '../../lib/geojson/model.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'csv');
const OPTIONS = { publicUrl: 'https://maps.example.com' };

const fixture = (name: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
const utf8 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

/** Parses and checks the document is one parseMapDocument accepts unchanged. */
async function parse(bytes: Uint8Array | string, options = OPTIONS): Promise<ParsedFile> {
  const result = await parseCsv(typeof bytes === 'string' ? utf8(bytes) : bytes, options);
  const validated = parseMapDocument(JSON.parse(JSON.stringify(result.document)));
  expect(validated).toEqual(result.document);
  expect(result.media).toEqual([]);
  return result;
}

async function parseError(bytes: Uint8Array | string): Promise<AppError> {
  try {
    await parseCsv(typeof bytes === 'string' ? utf8(bytes) : bytes, OPTIONS);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the parse to fail');
}

const titles = (result: ParsedFile) => result.document.features.map((feature) => feature.properties.title);
const coordinates = (feature: MapFeature | undefined) => (feature?.geometry as { coordinates: number[] }).coordinates;

describe('CSV fixtures', () => {
  it('reads Excel\'s "CSV UTF-8": BOM stripped, quoted commas and quotes, groups and subgroups', async () => {
    const result = await parse(fixture('utf8-bom.csv'));
    expect(titles(result)).toEqual(['Café de Flore', 'Brandenburger Tor', '東京']);
    const [flore, tor, tokyo] = result.document.features;
    expect(coordinates(flore)).toEqual([2.3488, 48.8534]);
    expect(flore?.properties.description).toBe('Saint-Germain, Paris');
    expect(tor?.properties.description).toBe('Sagte: "Hallo"');
    expect(tokyo?.properties.description).toBe('Multi-byte 🗼');
    expect(result.document.groups).toEqual([
      { id: 1, title: 'Europe' },
      { id: 2, title: 'France', parent: 1 },
      { id: 3, title: 'Germany', parent: 1 },
      { id: 4, title: 'Asia' },
    ]);
    expect(result.document.features.map((feature) => feature.properties.group)).toEqual([2, 3, 4]);
    expect(result.document.features.map((feature) => feature.id)).toEqual([1, 2, 3]);
    expect(result.skipped).toEqual([]);
  });

  it('reads Excel\'s "Unicode Text": UTF-16 LE with BOM, tab-delimited', async () => {
    expect(decodeCsv(fixture('utf16le-bom.csv')).encoding).toBe('utf-16le');
    const result = await parse(fixture('utf16le-bom.csv'));
    expect(titles(result)).toEqual(['Stockholm', 'København']);
    expect(result.document.features[0]?.properties.description).toBe('Södermalm');
    expect(result.document.features[1]?.properties.description).toBe('Nyhavn\tharbour');
    expect(coordinates(result.document.features[1])).toEqual([12.5683, 55.6761]);
  });

  it('reads a French Excel CSV: Windows-1252, semicolons, decimal commas, CRLF', async () => {
    const bytes = fixture('windows-1252-semicolon.csv');
    expect(decodeCsv(bytes).encoding).toBe('windows-1252');
    const result = await parse(bytes);
    expect(titles(result)).toEqual(['Tour Eiffel', 'Marseille', 'Lyon']);
    expect(result.document.features.map((feature) => feature.properties.description)).toEqual([
      'Monument célèbre',
      'Café',
      'Théâtre',
    ]);
    expect(result.document.features.map(coordinates)).toEqual([
      [2.3522, 48.8566],
      [5.3698, 43.2965],
      [4.8357, 45.764],
    ]);
    expect(result.document.features.map((feature) => feature.properties.visible)).toEqual([undefined, false, false]);
  });

  it('reads a TSV without BOM and with LF line ends (lng accepted)', async () => {
    const result = await parse(fixture('tab-delimited.tsv'));
    expect(titles(result)).toEqual(['Madrid', 'Barcelona']);
    expect(coordinates(result.document.features[0])).toEqual([-3.7038, 40.4168]);
  });

  it('interprets every optional column and reports skipped rows with their row numbers', async () => {
    const result = await parse(fixture('all-columns.csv'));
    const features = result.document.features;
    expect(titles(result)).toEqual([
      'Paris',
      'Lyon',
      'London',
      'New York',
      'Foreign image',
      'Lookalike host',
      'Traversal',
    ]);
    const [paris, lyon, london, newYork, foreign, lookalike, traversal] = features;
    expect(paris?.properties).toEqual({
      title: 'Paris',
      description: 'Line one\nLine two',
      url: 'https://paris.fr',
      group: 2,
      color: '#ff0000',
      media_url: 'https://youtu.be/x',
      'marker-symbol': 'star',
      image: { id: 'img_1' },
      extra: 'a',
      extra_2: 'b',
      toString: 't',
      marker_id_2: 'media:0',
    });
    expect(lyon?.properties).toEqual({
      title: 'Lyon',
      group: 2,
      visible: false,
      'marker-symbol': 'circle',
      image: { id: 'img-2' },
    });
    // "Europe//United Kingdom/": empty segments ignored, Europe reused.
    expect(london?.properties).toEqual({ title: 'London', group: 3, color: '#aabbcc', visible: false });
    expect(newYork?.properties).toEqual({ title: 'New York', group: 4 });
    for (const feature of [foreign, lookalike, traversal]) expect(feature?.properties.image).toBeUndefined();
    expect(result.document.groups).toEqual([
      { id: 1, title: 'Europe' },
      { id: 2, title: 'France', parent: 1 },
      { id: 3, title: 'United Kingdom', parent: 1 },
      { id: 4, title: 'North America' },
    ]);

    // Row numbers count the header as row 1 and a quoted line break does not start a row.
    const skippedRows = result.skipped.filter((item) => item.reason.includes('skipped'));
    expect(skippedRows.map((item) => item.line)).toEqual([6, 7, 8, 9, 10]);
    expect(skippedRows.map((item) => item.reason)).toEqual([
      'row 6 skipped: latitude is empty; longitude is empty',
      'row 7 skipped: latitude 95 is out of range (-90 to 90)',
      'row 8 skipped: latitude "abc" is not a number',
      'row 9 skipped: longitude "NaN" is not a number',
      'row 10 skipped: longitude "1e400" is not a finite number',
    ]);
    const notes = result.skipped.filter((item) => !item.reason.includes('skipped'));
    expect(notes.map((item) => item.line)).toEqual([11, 11, 12, 13, 14]);
    expect(notes[0]?.reason).toMatch(/color "red" is not a #rrggbb colour; the item was imported without it/);
    expect(notes[1]?.reason).toMatch(/visible "maybe" .* imported as visible/);
    expect(notes[2]?.reason).toMatch(/service_image_url .* not an image URL of this service/);
  });

  it('keeps dangerous header names out of the properties and renames reserved ones', async () => {
    const result = await parse(fixture('all-columns.csv'));
    for (const feature of result.document.features) {
      expect(Object.getPrototypeOf(feature.properties)).toBe(Object.prototype);
      expect(Object.hasOwn(feature.properties, '__proto__')).toBe(false);
      expect(Object.hasOwn(feature.properties, 'constructor')).toBe(false);
      expect(feature.properties.marker_id).toBeUndefined();
    }
  });
});

describe('CSV reading', () => {
  it('detects the delimiter from the header', () => {
    expect(detectDelimiter('lat,lon\n1,2')).toBe(',');
    expect(detectDelimiter('lat;lon;name\n1,5;2,5;x')).toBe(';');
    expect(detectDelimiter('lat\tlon\n1\t2')).toBe('\t');
    expect(detectDelimiter('lat|lon|a,b\n1|2|x')).toBe('|');
    // The delimiter that splits off the coordinate columns wins over a more frequent one.
    expect(detectDelimiter('"a,b,c,d";lat;lon\n')).toBe(';');
    expect(detectDelimiter('title, with, commas;lat;lon')).toBe(';');
    expect(detectDelimiter('\n\nlatitude|longitude\n')).toBe('|');
  });

  it('reads decimal commas where they cannot be anything else', async () => {
    const semicolons = await parse('lat;lon;name\n48,8566;2,3522;Paris\n-33,8688;151,2093;Sydney\n');
    expect(semicolons.document.features.map(coordinates)).toEqual([
      [2.3522, 48.8566],
      [151.2093, -33.8688],
    ]);
    const quoted = await parse('lat,lon,name\n"48,8566","2,3522",Paris\n');
    expect(coordinates(quoted.document.features[0])).toEqual([2.3522, 48.8566]);
    // Thousands separators and mixed marks are not coordinates.
    const odd = await parse('lat;lon\n"1.234,5";2\n1,2,3;4\n');
    expect(odd.document.features).toEqual([]);
    expect(odd.skipped.map((item) => item.line)).toEqual([2, 3]);
  });

  it('accepts mixed \\r\\n, \\n and \\r line ends and blank lines', async () => {
    const result = await parse('lat,lon,name\r\n1,1,a\n2,2,b\r3,3,c\r\n\n\r\n4,4,d');
    expect(titles(result)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.skipped).toEqual([]);
  });

  it('numbers records, not lines, and ends a file without a final line end', () => {
    const seen: [number, string[]][] = [];
    readCsvRecords('a,b\n"x\ny",z\n,\nlast', ',', (row, fields) => seen.push([row, [...fields]]));
    expect(seen).toEqual([
      [1, ['a', 'b']],
      [2, ['x\ny', 'z']],
      [3, ['', '']],
      [4, ['last']],
    ]);
    const trailing: string[][] = [];
    readCsvRecords('a,b,\n1,2,', ',', (_row, fields) => trailing.push([...fields]));
    expect(trailing).toEqual([
      ['a', 'b', ''],
      ['1', '2', ''],
    ]);
  });

  it('matches column names ignoring case and surrounding spaces, first column of a role wins', async () => {
    const result = await parse(' LATITUDE , Longitude ,NAME,title,Lat\n1,2,first,second,99\n');
    expect(result.document.features[0]?.properties).toEqual({ title: 'first', title_2: 'second', Lat: '99' });
    // The second title column and the second latitude column are kept as plain properties.
    expect(coordinates(result.document.features[0])).toEqual([2, 1]);
  });

  it('handles duplicate header names: the first keeps the name, later ones get a suffix', async () => {
    const result = await parse('lat,lon,note,note,note,note_2\n1,2,a,b,c,d\n');
    expect(result.document.features[0]?.properties).toEqual({ note: 'a', note_3: 'b', note_4: 'c', note_2: 'd' });
  });

  it('treats formula-like cells as text', async () => {
    const result = await parse('lat,lon,title,description\n1,2,"=HYPERLINK(""http://x"")",+1\n');
    expect(result.document.features[0]?.properties).toEqual({ title: '=HYPERLINK("http://x")', description: '+1' });
  });

  it('names the accepted column names when a coordinate column is missing', async () => {
    const noLat = await parseError('y,lon\n1,2\n');
    expect(noLat.code).toBe('missing_coordinate_columns');
    expect(noLat.message).toContain('lat, latitude');
    const noLon = await parseError('lat,x\n1,2\n');
    expect(noLon.message).toContain('lon, long, lng, longitude');
    const neither = await parseError('name\nParis\n');
    expect(neither.message).toMatch(/lat, latitude.*lon, long, lng, longitude/);
  });

  it('refuses empty files and files without data rows', async () => {
    expect((await parseError('')).code).toBe('empty_table');
    expect((await parseError('\r\n\r\n')).code).toBe('empty_table');
    expect((await parseError('\uFEFF')).code).toBe('empty_table');
    expect((await parseError('lat,lon\n\n,\n')).code).toBe('empty_table');
  });

  it('returns an empty document (and every reason) when no row has valid coordinates', async () => {
    const result = await parse('lat,lon\n91,0\n0,181\n');
    expect(result.document.features).toEqual([]);
    expect(result.skipped.map((item) => item.line)).toEqual([2, 3]);
  });
});

describe('CSV column values', () => {
  it('normalises colours to #rrggbb', () => {
    expect(normaliseColor('#FF8800')).toBe('#ff8800');
    expect(normaliseColor('ff8800')).toBe('#ff8800');
    expect(normaliseColor('#F80')).toBe('#ff8800');
    expect(normaliseColor('F80')).toBeNull(); // three letters without # could be a word ("bad", "fab")
    expect(normaliseColor('#12345g')).toBeNull();
    expect(normaliseColor('red')).toBeNull();
    expect(normaliseColor('#ff880000')).toBeNull();
  });

  it('reads visible as false/0/no (hidden) and true/1/yes/empty (visible), ignoring case', async () => {
    const result = await parse(
      'lat,lon,visible\n1,1,FALSE\n2,2,No\n3,3,0\n4,4,TRUE\n5,5,yes\n6,6,1\n7,7,\n8,8, false \n',
    );
    expect(result.document.features.map((feature) => feature.properties.visible)).toEqual([
      false,
      false,
      false,
      undefined,
      undefined,
      undefined,
      undefined,
      false,
    ]);
    expect(result.skipped).toEqual([]);
  });

  it('resolves service_image_url only under the public URL, never elsewhere', () => {
    const urls = new ServiceImageUrls('https://maps.example.com');
    expect(urls.imageId('https://maps.example.com/images/abc')).toBe('abc');
    expect(urls.imageId('https://maps.example.com/images/abc/')).toBe('abc');
    expect(urls.imageId('https://maps.example.com/images/A_b-9/w800.jpg?x=1#y')).toBe('A_b-9');
    expect(urls.imageId('https://MAPS.example.com/images/abc')).toBe('abc'); // host names ignore case
    expect(urls.imageId(`https://maps.example.com/images/${'a'.repeat(64)}`)).toBe('a'.repeat(64));
    for (const refused of [
      `https://maps.example.com/images/${'a'.repeat(65)}`,
      'http://maps.example.com/images/abc',
      'https://maps.example.com:8443/images/abc',
      'https://user@maps.example.com/images/abc',
      'https://maps.example.com.evil.org/images/abc',
      'https://evil.org/maps.example.com/images/abc',
      'https://maps.example.com/image/abc',
      'https://maps.example.com/images/',
      'https://maps.example.com/images/a.b',
      'https://maps.example.com/images/a%2Fb',
      'https://maps.example.com/x/../images/../secret/abc',
      'http://169.254.169.254/latest/meta-data/',
      'http://2130706433/images/abc',
      'http://[::ffff:127.0.0.1]/images/abc',
      'file:///etc/passwd',
      '/images/abc',
      'abc',
    ]) {
      expect(urls.imageId(refused), refused).toBeNull();
    }
    const withPath = new ServiceImageUrls('https://example.com/maps/');
    expect(withPath.imageId('https://example.com/maps/images/abc/x.png')).toBe('abc');
    expect(withPath.imageId('https://example.com/images/abc')).toBeNull();
    expect(new ServiceImageUrls('not a url').imageId('https://example.com/images/abc')).toBeNull();
  });

  it('never fetches anything: a loopback image URL is refused without a request', async () => {
    const originalFetch = globalThis.fetch;
    let fetched = 0;
    globalThis.fetch = (() => {
      fetched++;
      throw new Error('no fetch');
    }) as typeof fetch;
    try {
      const result = await parse('lat,lon,service_image_url\n1,2,http://127.0.0.1:9/images/abc\n');
      expect(result.document.features[0]?.properties.image).toBeUndefined();
      expect(result.skipped).toHaveLength(1);
    } finally {
      globalThis.fetch = originalFetch;
    }
    expect(fetched).toBe(0);
  });
});

describe('CSV bad input (checklist 25–29)', () => {
  it('25: an unterminated quote near the start of a 15 MB file is csv_parse_error with its row', async () => {
    const rows = ['lat,lon,name', '1,2,ok', '3,4,"never closed'];
    const filler = '5,6,filler row with some text\n'.repeat(520_000);
    const bytes = utf8(`${rows.join('\n')}\n${filler}`);
    expect(bytes.length).toBeGreaterThan(15_000_000);
    const started = performance.now();
    const error = await parseError(bytes);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe('csv_parse_error');
    expect(error.message).toMatch(/^row 3: a quoted field is never closed/);
  });

  it('25: a quote followed by text is an error with row and line', async () => {
    const error = await parseError('lat,lon,name\n"a\nb",2,x\n1,2,"bad"quote\n');
    expect(error.code).toBe('csv_parse_error');
    expect(error.message).toMatch(/^row 3 \(line 4\): a quoted field is followed by "q"/);
  });

  it('25: stray quotes before a long run of spaces are refused at the first (papaparse alone was quadratic: minutes)', async () => {
    const text = 'lat,lon\n"' + '"x'.repeat(100_000) + ' '.repeat(14_000_000) + '\n1,2\n';
    const error = await parseError(text);
    expect(error.code).toBe('csv_parse_error');
    expect(error.message).toMatch(/^row 2: a quoted field is followed by "x"/);
    // Space between a closing quote and the delimiter is refused too, where it is.
    expect((await parseError('lat,lon,name\n1,2,"a" ,b\n')).message).toMatch(/^row 2: a quoted field is followed by " "/);
  }, 30_000);

  it('caps the groups a group column makes: 20 levels, 10,000 groups (deep paths were quadratic, many groups filled the heap)', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `g${i}`).join('/');
    const fine = await parse(`lat,lon,group\n1,2,${twenty}\n3,4,${twenty}/\n`);
    expect(fine.document.groups).toHaveLength(20);
    expect(fine.document.features.map((f) => f.properties.group)).toEqual([20, 20]);
    const deep = await parseError(`lat,lon,group\n1,2,a\n1,2,${'x/'.repeat(50_000)}\n`);
    expect(deep.code).toBe('sheet_too_large');
    expect(deep.message).toMatch(/^row 3: the group "x\/x\/.*" has more than 20 levels$/);
    const rows = Array.from({ length: 10_001 }, (_, i) => `1,2,Region ${i % 100}/Area ${i}`).join('\n');
    const many = await parseError(`lat,lon,group\n${rows}\n`);
    expect(many.code).toBe('sheet_too_large');
    expect(many.message).toBe('row 9902: the group column names more than 10000 groups');
  });

  it('26: a 15 MB line of delimiters is refused before its fields are made (papaparse made them: +434 MB)', async () => {
    const line = `"a"${','.repeat(15 * 1024 * 1024)}\n`;
    const heapBefore = v8.getHeapStatistics().total_heap_size;
    const error = await parseError(`lat,lon\n1,2\n${line}`);
    const grown = (v8.getHeapStatistics().total_heap_size - heapBefore) / 1024 / 1024;
    expect(error.code).toBe('sheet_too_large');
    expect(error.message).toBe('row 3 has more than 1000 columns (is the delimiter "," right?)');
    expect(grown).toBeLessThan(150);
  });

  it('26: one 15 MB line with 100,000+ columns stops at the column limit', async () => {
    const line = `lat,lon,${'x,'.repeat(7_500_000)}`;
    const started = performance.now();
    const error = await parseError(line);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe('sheet_too_large');
    expect(error.message).toMatch(/row 1 has more than 1000 columns/);
  });

  it('26/29: a 15 MB field and a 1 MB cell are cell_too_large', async () => {
    const huge = await parseError(`lat,lon,name\n1,2,${'x'.repeat(15_000_000)}`);
    expect(huge.code).toBe('cell_too_large');
    expect(huge.message).toMatch(/^row 2: a field is longer than 100000 characters/);
    const quoted = await parseError(`lat,lon,name\n1,2,"${'y'.repeat(1_000_000)}"\n`);
    expect(quoted.code).toBe('cell_too_large');
    // Just under the limit is fine.
    const ok = await parse(`lat,lon,name\n1,2,"${'z'.repeat(99_999)}"\n`);
    expect((ok.document.features[0]?.properties.title as string).length).toBe(99_999);
  });

  it('caps the number of rows; blank lines are no rows', async () => {
    const error = await parseError(`lat,lon\n${'x,y\n'.repeat(1_000_000)}`);
    expect(error.code).toBe('sheet_too_large');
    expect(error.message).toBe('the file has more than 1000000 rows');
    expect((await parse(`lat,lon\n1,2\n${'\n,\n'.repeat(600_000)}3,4\n`)).document.features).toHaveLength(2);
    expect((await parseError('\n'.repeat(2_000_000))).code).toBe('empty_table');
  });

  it('27: __proto__ / constructor / toString headers: no hang, no prototype change', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const result = await parse('__proto__,__proto__,toString,constructor,prototype,lat,lon,hasOwnProperty\na,b,c,d,e,1,2,f\n');
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
    const properties = result.document.features[0]?.properties ?? {};
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties).sort()).toEqual(['hasOwnProperty', 'toString']);
    expect(properties.toString).toBe('c');
  });

  it('28: Windows-1252 is transcoded, UTF-8 is kept, double-byte legacy encodings are refused', async () => {
    const latin = new Uint8Array([...Buffer.from('lat,lon,name\n1,2,Caf'), 0xe9, ...Buffer.from(' na'), 0xef, 0x76, 0x65, 0x0a]);
    expect((await parse(latin)).document.features[0]?.properties.title).toBe('Café naïve');
    // Windows-1252's own range 0x80–0x9F: curly quotes, the euro sign, a dash (not C1 controls).
    const quotes = new Uint8Array([...Buffer.from('lat,lon,name\n1,2,'), 0x93, 0x51, 0x94, 0x20, 0x35, 0x80, 0x20, 0x96, 0x20, 0xe9, 0x0a]);
    expect((await parse(quotes)).document.features[0]?.properties.title).toBe('\u201cQ\u201d 5\u20ac \u2013 é');
    // GBK: 北京 上海 广州 (bytes in runs, as double-byte encodings have them).
    const gbk = new Uint8Array([
      ...Buffer.from('lat,lon,name\n39.9,116.4,'),
      0xb1, 0xb1, 0xbe, 0xa9, 0x0a,
      ...Buffer.from('31.2,121.5,'),
      0xc9, 0xcf, 0xba, 0xa3, 0x0a,
      ...Buffer.from('23.1,113.3,'),
      0xb9, 0xe3, 0xd6, 0xdd, 0x0a,
    ]);
    const error = await parseError(gbk);
    expect(error.code).toBe('unsupported_encoding');
    // Mostly UTF-8 with one broken sequence stays UTF-8, and the import says so (U+FFFD for the broken bytes).
    const mostly = new Uint8Array([...Buffer.from('lat,lon,name\n1,2,Zürich München '), 0xff, 0x0a]);
    const imported = await parse(mostly);
    expect(imported.document.features[0]?.properties.title).toBe('Zürich München \uFFFD');
    expect(imported.skipped).toEqual([
      { reason: 'the file is UTF-8 but 1 byte sequence is not (the first on line 2); it was imported as \uFFFD', line: 2 },
    ]);
  });

  it('refuses legacy multi-byte encodings instead of importing mojibake or U+FFFD (issue 8: 200 rows of GBK)', async () => {
    const rows = (titles: string[]) => `lat,lon,title\n${titles.map((title, i) => `${(i % 80) + 0.5},${(i % 170) + 0.25},${title}`).join('\n')}\n`;
    const cities = ['北京', '上海', '广州', '深圳', '杭州', '南京', '成都', '武汉', '西安', '重庆'];
    const gbk = iconv.encode(rows(Array.from({ length: 200 }, (_, i) => `${cities[i % cities.length]}市第${i}号`)), 'gbk');
    const gbkError = await parseError(new Uint8Array(gbk));
    expect(gbkError.code).toBe('unsupported_encoding');
    expect(gbkError.message).toMatch(/looks like GB18030/);
    for (const [encoding, titles] of [
      ['gbk', ['北京', '上海', '广州']],
      ['big5', ['臺北市', '高雄市', '台中市', '台南市']],
      ['shift_jis', ['東京都', '大阪府', '京都市', '横浜市']],
      ['euc-kr', ['서울특별시', '부산광역시', '인천광역시']],
      ['euc-jp', ['東京都', '大阪府', '京都市']],
    ] as const) {
      const error = await parseError(new Uint8Array(iconv.encode(rows([...titles]), encoding)));
      expect(error.code, encoding).toBe('unsupported_encoding');
    }
    // Windows-1252 text of several languages stays Windows-1252.
    for (const titles of [
      ['Café de la Gare', 'Hôtel de Ville', 'Musée d’Orsay', 'Château', 'Élysée'],
      ['São Paulo', 'Estação da Luz', 'Praça da Sé', 'Informações', 'Ações'],
      ['Zürich', 'Köln', 'Düsseldorf', 'Straße', 'Österreich'],
      ['Peñíscola', 'Cádiz', 'Málaga', 'Córdoba', 'León'],
      Array.from({ length: 300 }, (_, i) => `Rue n°${i} — « quai » ${i % 3 ? 'à côté' : 'über'} €${i}`),
    ]) {
      const result = await parse(new Uint8Array(iconv.encode(rows(titles), 'win1252')));
      expect(result.document.features.map((feature) => feature.properties.title)).toEqual(titles);
    }
    // A UTF-8 file of Chinese with one broken byte is still UTF-8 (and says so).
    const chinese = Buffer.concat([Buffer.from(rows(cities)), Buffer.from([0xff, 0x0a])]);
    expect((await parse(new Uint8Array(chinese))).document.features[0]?.properties.title).toBe('北京');
  });

  it('28: UTF-16 BE with BOM and UTF-16 LE without BOM', async () => {
    const text = 'lat\tlon\tname\n1\t2\tÅre\n';
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(titles(await parse(new Uint8Array([0xfe, 0xff, ...be])))).toEqual(['Åre']);
    expect(titles(await parse(new Uint8Array(Buffer.from(text, 'utf16le'))))).toEqual(['Åre']);
    // Without a byte order mark, with characters whose other byte is zero too (一 is U+4E00):
    // they were read as UTF-8 with the zero bytes dropped.
    const cjk = 'lat,lon,name\n1,2,一\n3,4,中文\n';
    expect(titles(await parse(new Uint8Array(Buffer.from(cjk, 'utf16le'))))).toEqual(['一', '中文']);
    expect(titles(await parse(new Uint8Array(Buffer.from(cjk, 'utf16le').swap16())))).toEqual(['一', '中文']);
  });

  it('29: NUL characters and lone surrogates are stripped from cells and headers', async () => {
    const result = await parse('lat,lon,na\u0000me,ex\u0000tra\n1,2,Pa\u0000ris,x\u0000y\n');
    expect(result.document.features[0]?.properties).toEqual({ title: 'Paris', extra: 'xy' });
    // Lone surrogates cannot come out of CSV bytes (decoders make them U+FFFD); the table
    // conversion every table format shares strips them wherever they come from (XLS, XLSX).
    const builder = new TableBuilder(OPTIONS);
    builder.addRow(1, ['lat', 'lon', 'name', 'no\uDC00te']);
    builder.addRow(2, ['1', '2', 'a\uD800b', '\uDC00c\uD83D\uDE00']);
    expect(builder.finish().document.features[0]?.properties).toEqual({ title: 'ab', note: 'c\uD83D\uDE00' });
    // A surrogate encoded in UTF-8 bytes (invalid UTF-8) becomes U+FFFD, never a lone surrogate.
    const encoded = await parse(new Uint8Array([...Buffer.from('lat,lon,name\n1,2,é '), 0xed, 0xa0, 0x80, 0x0a]));
    const title = encoded.document.features[0]?.properties.title as string;
    expect((title as unknown as { isWellFormed(): boolean }).isWellFormed()).toBe(true);
    expect(title.startsWith('é ')).toBe(true);
  });
});

describe('CSV speed', () => {
  it('parses 100,000 rows well within a second or two', async () => {
    const lines = ['lat,lon,title,description,group,color,visible'];
    for (let index = 0; index < 100_000; index++) {
      lines.push(`${(index % 170) - 85}.123456,${(index % 350) - 175}.654321,Place ${index},"Text, with comma",Region ${index % 10}/Sub ${index % 3},#a0b1c2,${index % 5 ? 'true' : 'false'}`);
    }
    const bytes = utf8(lines.join('\r\n'));
    const started = performance.now();
    const result = await parseCsv(bytes, OPTIONS);
    const elapsed = performance.now() - started;
    expect(result.document.features).toHaveLength(100_000);
    expect(result.document.groups).toHaveLength(40);
    expect(elapsed).toBeLessThan(5_000);
  });
});
