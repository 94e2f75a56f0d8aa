// The import format told by the file's content alone (lib/formats/guessFormat.ts): each format in
// the shapes real tools write, XML in other encodings and with prologs, and the files that are
// none of them refused with what they look like and the formats taken.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { guessFormat } from '../../lib/formats/guessFormat.js';
import { importSamples } from '../support/importSamples.js';
import { makeOds, simpleXlsx } from '../support/spreadsheetWriter.js';
import { makeZip } from '../support/zipWriter.js';

const text = (value: string) => new TextEncoder().encode(value);

async function refusal(bytes: Uint8Array): Promise<AppError> {
  const error = await guessFormat(bytes).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('guessing an import format from the content', () => {
  it.each(importSamples().map((sample) => [sample.name, sample] as const))('tells %s', async (_name, sample) => {
    expect(await guessFormat(sample.bytes)).toBe(sample.format);
  });

  it('tells XML by its root element past the declaration, comments, a DOCTYPE and a namespace prefix', async () => {
    expect(await guessFormat(text('<?xml version="1.0"?>\n<!-- made by hand -->\n<?xml-stylesheet href="a.xsl"?>\n<kml:kml xmlns:kml="http://www.opengis.net/kml/2.2"/>'))).toBe('kml');
    expect(await guessFormat(text('<!DOCTYPE gpx>\n<gpx version="1.1"></gpx>'))).toBe('gpx');
    // UTF-16 with and without a byte order mark.
    const utf16 = Buffer.from('\uFEFF<?xml version="1.0" encoding="UTF-16"?><gpx version="1.1"/>', 'utf16le');
    expect(await guessFormat(utf16)).toBe('gpx');
    expect(await guessFormat(utf16.subarray(2))).toBe('gpx');
  });

  it('tells zip archives by their entries: XLSX, ODS, and a KMZ whatever its KML is called', async () => {
    expect(await guessFormat(simpleXlsx([['lat', 'lon'], [1, 2]]))).toBe('xlsx');
    expect(await guessFormat(makeOds('<table:table/>'))).toBe('ods');
    expect(await guessFormat(makeZip([{ name: 'maps/Trip.KML', data: '<kml/>' }]))).toBe('kmz');
  });

  it('takes JSON as GeoJSON and any other text as CSV (their readers judge the rest)', async () => {
    expect(await guessFormat(text('[1, 2]'))).toBe('geojson');
    expect(await guessFormat(text('Latitude;Longitude\n1,5;2,5\n'))).toBe('csv');
    expect(await guessFormat(Buffer.from('lat,lon,name\n48.1,11.5,M\xfcnchen\n', 'latin1'))).toBe('csv');
  });

  it('refuses other files, saying what they look like and which formats are taken', async () => {
    const cases: [Uint8Array, string][] = [
      [new Uint8Array(0), 'The file is empty'],
      [Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'a PNG image'],
      [text('%PDF-1.7\n%âãÏÓ\n'), 'a PDF document'],
      [text('<!DOCTYPE html>\n<html><body>Not found</body></html>'), 'an HTML page'],
      [text('<?xml version="1.0"?><rss version="2.0"><channel/></rss>'), 'root element is <rss>, neither KML nor GPX'],
      [makeZip([{ name: 'word/document.xml', data: '<w:document/>' }]), 'a Word document (.docx)'],
      [makeZip([{ name: 'notes.txt', data: 'hello' }]), 'a zip archive that holds no spreadsheet'],
      [Uint8Array.from({ length: 600 }, (_, i) => (i * 7919) % 256), 'binary data of an unknown kind'],
    ];
    for (const [bytes, what] of cases) {
      const error = await refusal(bytes);
      expect(error.code).toBe('unsupported_type');
      expect(error.message).toContain(what);
      expect(error.message).toContain('the import takes KML, KMZ, GPX, GeoJSON, CSV, XLSX, XLS and ODS files');
    }
  });

  it('refuses a damaged zip archive as one', async () => {
    const zip = makeZip([{ name: 'doc.kml', data: '<kml/>' }]);
    const error = await refusal(zip.subarray(0, zip.length - 10));
    expect(error.code).toBe('invalid_archive');
  });
});
