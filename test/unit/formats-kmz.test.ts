import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { byTitle, bytesOf } from '../support/parsing.js';
import { AppError } from '../../lib/errors.js';
import { parseKml } from '../../lib/formats/kml.js';
import { resolveArchivePath } from '../../lib/formats/kmz.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import { parseMapDocument } from '../../lib/geojson/model.js';
import { makeZip, type ZipInput } from '../support/zipWriter.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/kmz/${name}`, import.meta.url));
const options = { publicUrl: 'http://localhost:3000' };

/** Parses (a KMZ is parsed asynchronously), and checks the document passes parseMapDocument unchanged in meaning. */
async function parse(bytes: Uint8Array): Promise<ParsedFile> {
  const result = await parseKml(bytes, options);
  const plain = JSON.parse(JSON.stringify(result.document));
  expect(parseMapDocument(plain)).toEqual(plain);
  return result;
}

/** The AppError parsing fails with; fails the test when it fails otherwise or not at all. */
async function parseError(bytes: Uint8Array | string): Promise<AppError> {
  try {
    await parseKml(bytesOf(bytes), options);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}


const simpleKml = (title: string) =>
  `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>${title}</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>`;

const holidayKmz = () =>
  makeZip([
    { name: 'doc.kml', data: fixture('doc.kml') },
    { name: 'files/', data: '', store: true },
    { name: 'files/icon.png', data: fixture('files/icon.png'), store: true },
    { name: 'files/photo.jpg', data: fixture('files/photo.jpg') },
    { name: 'files/readme.txt', data: fixture('files/readme.txt') },
  ]);

describe('KMZ with icons and photos (Google Earth)', () => {
  let result: ParsedFile;
  beforeAll(async () => {
    result = await parse(holidayKmz());
  });

  it('reads doc.kml with its folders and styles', () => {
    expect(result.document.groups).toEqual([{ id: 1, title: 'Beach' }]);
    expect(result.document.features).toHaveLength(6);
    expect(result.skipped).toEqual([]);
    const sunset = byTitle(result, 'Sunset point');
    expect(sunset.geometry).toEqual({ type: 'Point', coordinates: [-16.25, 28.46] });
    expect(sunset.properties.color).toBe('#ff901e');
  });

  it('extracts the icon and the photo once each, and refers to them by placeholder', () => {
    expect(result.media.map(({ kind, name }) => ({ kind, name }))).toEqual([
      { kind: 'image', name: 'files/photo.jpg' },
      { kind: 'marker', name: 'files/icon.png' },
    ]);
    expect(Buffer.from(result.media[0]?.bytes ?? []).equals(fixture('files/photo.jpg'))).toBe(true);
    expect(Buffer.from(result.media[1]?.bytes ?? []).equals(fixture('files/icon.png'))).toBe(true);
    const sunset = byTitle(result, 'Sunset point');
    expect(sunset.properties.marker_id).toBe('media:1');
    expect(sunset.properties.image).toEqual({ id: 'media:0' });
    const same = byTitle(result, 'Same icon, same photo');
    expect(same.properties.marker_id).toBe('media:1');
    expect(same.properties.image).toEqual({ id: 'media:0' });
  });

  it('ignores remote hrefs, files that are not images, paths outside the archive, and markers on lines', () => {
    for (const title of ['Remote icon and image', 'Icon that is not an image', 'Icon outside the archive', 'Walk with the icon style']) {
      const properties = byTitle(result, title).properties;
      expect(properties).not.toHaveProperty('marker_id');
      expect(properties).not.toHaveProperty('image');
    }
    expect(byTitle(result, 'Walk with the icon style').geometry.type).toBe('LineString');
  });

  it('finds <IMG SRC> in any case and stays linear on descriptions full of unclosed <img', async () => {
    const description = `${'<img '.repeat(100_000)}`;
    const kml = `<kml><Placemark><name>a</name><description><![CDATA[<p><IMG width=3 SRC=files/photo.jpg></p>]]></description>
      <Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name>b</name><description><![CDATA[${description}]]></description><Point><coordinates>1,2</coordinates></Point></Placemark></kml>`;
    const started = performance.now();
    const result = await parse(makeZip([{ name: 'doc.kml', data: kml }, { name: 'files/photo.jpg', data: fixture('files/photo.jpg') }]));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(byTitle(result, 'a').properties.image).toEqual({ id: 'media:0' });
    expect(byTitle(result, 'b').properties).not.toHaveProperty('image');
  });

  it('resolves references relative to the KML, never outside the archive', () => {
    expect(resolveArchivePath('files/a.png', '')).toBe('files/a.png');
    expect(resolveArchivePath('./files/../files/a%20b.png', '')).toBe('files/a b.png');
    expect(resolveArchivePath('a.png', 'sub/dir')).toBe('sub/dir/a.png');
    expect(resolveArchivePath('../a.png', 'sub/dir')).toBe('sub/a.png');
    expect(resolveArchivePath('/a.png', 'sub')).toBe('a.png');
    expect(resolveArchivePath('files\\a.png?x=1', '')).toBe('files/a.png');
    expect(resolveArchivePath('../../etc/passwd', '')).toBeUndefined();
    expect(resolveArchivePath('http://example.org/a.png', '')).toBeUndefined();
    expect(resolveArchivePath('file:///etc/passwd', '')).toBeUndefined();
    expect(resolveArchivePath('C:\\icons\\a.png', '')).toBeUndefined();
    expect(resolveArchivePath('//host/a.png', '')).toBeUndefined();
  });
});

describe('choosing the main KML', () => {
  it('prefers doc.kml, then the first top-level .kml, then the first anywhere', async () => {
    const title = async (zip: Uint8Array) => (await parse(zip)).document.features[0]?.properties.title;
    expect(await title(makeZip([{ name: 'a.kml', data: simpleKml('a') }, { name: 'doc.kml', data: simpleKml('doc') }]))).toBe('doc');
    expect(await title(makeZip([{ name: 'sub/x.kml', data: simpleKml('sub') }, { name: 'Top.KML', data: simpleKml('top') }]))).toBe('top');
    expect(await title(makeZip([{ name: 'files/', data: '' }, { name: 'files/main.kml', data: simpleKml('nested') }]))).toBe('nested');
  });

  it('resolves icons relative to a KML in a folder, and stored entries', async () => {
    const kml = `<kml><Style id="s"><IconStyle><Icon><href>icons/pin.png</href></Icon></IconStyle></Style>
      <Placemark><styleUrl>#s</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark></kml>`;
    const result = await parse(
      makeZip([
        { name: 'maps/tour.kml', data: kml, store: true },
        { name: 'maps/icons/pin.png', data: fixture('files/icon.png') },
      ]),
    );
    expect(result.document.features[0]?.properties.marker_id).toBe('media:0');
    expect(result.media[0]?.name).toBe('maps/icons/pin.png');
  });

  it('refuses an archive without KML, naming what it holds; nested archives are never opened', async () => {
    const error = await parseError(
      makeZip([
        { name: 'inner.kmz', data: makeZip([{ name: 'doc.kml', data: simpleKml('inner') }]) },
        { name: 'readme.txt', data: 'hello' },
      ]),
    );
    expect(error.code).toBe('no_kml_in_archive');
    expect(error.message).toBe('the KMZ archive holds no .kml file (it holds "inner.kmz", "readme.txt")');
    expect((await parseError(makeZip([]))).code).toBe('no_kml_in_archive');
  });
});

describe('hostile archives', () => {
  it('refuses a main KML over 48 MB before inflating it (a 198 MB one ended the process), and one whose size lies', async () => {
    // 60 MB of spaces deflate to ~60 kB, well within the 200 MB budget and the 200:1 ratio cap... as declared.
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${' '.repeat(60 * 1024 * 1024)}</Document></kml>`;
    const big = await parseError(makeZip([{ name: 'doc.kml', data: kml }]));
    expect(big.code).toBe('archive_too_large');
    expect(big.message).toBe('the KMZ\'s KML file "doc.kml" inflates to 61 MB; at most 48 MB are allowed');
    const lying = await parseError(makeZip([{ name: 'doc.kml', data: kml, size: 1000 }]));
    expect(lying.code).toBe('archive_too_large'); // stops just past the declared size
  });

  it('ignores zip-slip and prototype names safely', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const result = await parse(
      makeZip([
        { name: '../../evil.kml', data: simpleKml('evil') },
        { name: '/abs/doc.kml', data: simpleKml('absolute') },
        { name: 'C:/x.kml', data: simpleKml('drive') },
        { name: '__proto__', data: 'x' },
        { name: 'toString', data: 'y' },
        { name: 'constructor.kml', data: simpleKml('constructor') },
      ]),
    );
    expect(result.document.features[0]?.properties.title).toBe('constructor');
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect((await parseError(makeZip([{ name: '..\\..\\evil.kml', data: simpleKml('evil') }]))).code).toBe('no_kml_in_archive');
  });

  it('stops an entry that inflates past its declared size (a zip bomb) with archive_too_large', async () => {
    const zeros = Buffer.alloc(50 * 1024 * 1024);
    const started = performance.now();
    const error = await parseError(makeZip([{ name: 'doc.kml', data: zeros, size: 1024 }]));
    expect(error.code).toBe('archive_too_large');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses entries whose declared size is beyond the budget or the ratio, before inflating', async () => {
    const small = Buffer.alloc(1000);
    expect((await parseError(makeZip([{ name: 'doc.kml', data: small, size: 300 * 1024 * 1024 }]))).code).toBe('archive_too_large');
    const ratio = await parseError(makeZip([{ name: 'doc.kml', data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]));
    expect(ratio.code).toBe('archive_too_large');
    expect(ratio.message).toMatch(/200 times its compressed size/);
  });

  it('stops overlapping entries (one compressed kernel named many times) at the media budget', async () => {
    const kernel = Buffer.concat([fixture('files/icon.png'), Buffer.alloc(1024 * 1024 - 95)]);
    const count = 210;
    let styles = '';
    for (let i = 0; i < count; i++) {
      styles += `<Style id="s${i}"><IconStyle><Icon><href>files/i${i}.png</href></Icon></IconStyle></Style>
        <Placemark><styleUrl>#s${i}</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>`;
    }
    const entries: ZipInput[] = [
      { name: 'doc.kml', data: `<kml><Document>${styles}</Document></kml>` },
      { name: 'files/i0.png', data: kernel },
    ];
    for (let i = 1; i < count; i++) entries.push({ name: `files/i${i}.png`, aliasOf: 'files/i0.png' });
    const zip = makeZip(entries);
    expect(zip.length).toBeLessThan(100 * 1024);
    const error = await parseError(zip);
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toMatch(/icons and images .* more than 50 MB/);
  });

  it('refuses encrypted entries, unknown compression, too many entries', async () => {
    const encrypted = await parseError(makeZip([{ name: 'doc.kml', data: simpleKml('x'), flags: 0x0801 }]));
    expect(encrypted.code).toBe('invalid_archive');
    expect(encrypted.message).toMatch(/encrypted/);
    const bzip = await parseError(makeZip([{ name: 'doc.kml', data: simpleKml('x'), method: 12 }]));
    expect(bzip.code).toBe('invalid_archive');
    expect(bzip.message).toMatch(/compression method 12/);
    const many: ZipInput[] = [{ name: 'doc.kml', data: simpleKml('x'), store: true }];
    for (let i = 0; i < 10_000; i++) many.push({ name: `f${i}`, data: '', store: true });
    const tooMany = await parseError(makeZip(many));
    expect(tooMany.code).toBe('archive_too_large');
    expect(tooMany.message).toMatch(/10001 entries/);
  });

  it('reports corrupt and truncated archives as invalid_archive', async () => {
    const good = holidayKmz();
    for (const cut of [10, 100, good.length - 30, good.length - 1]) {
      const error = await parseError(good.subarray(0, cut));
      expect(error.code).toBe('invalid_archive');
    }
    const badCrc = await parseError(makeZip([{ name: 'doc.kml', data: simpleKml('x'), crc: 1234 }]));
    expect(badCrc.code).toBe('invalid_archive');
    expect(badCrc.message).toMatch(/CRC/);
    const damaged = Buffer.from(good);
    damaged.writeUInt32LE(0xdeadbeef, damaged.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    expect((await parseError(damaged)).code).toBe('invalid_archive');
    const garbage = Buffer.from(good);
    const at = garbage.indexOf(Buffer.from('doc.kml')) + 7;
    garbage.fill(0xff, at, at + 40);
    expect((await parseError(garbage)).code).toBe('invalid_archive');
    expect((await parseError(Buffer.from('PK\u0003\u0004 not really a zip'))).code).toBe('invalid_archive');
  });

  it('passes KML errors of the main document through', async () => {
    const doctype = await parseError(makeZip([{ name: 'doc.kml', data: '<!DOCTYPE kml [<!ENTITY a "b">]><kml/>' }]));
    expect(doctype.code).toBe('doctype_not_allowed');
    const networkLinks = await parseError(
      makeZip([{ name: 'doc.kml', data: '<kml><NetworkLink><Link><href>http://127.0.0.1:9/x.kml</href></Link></NetworkLink></kml>' }]),
    );
    expect(networkLinks.code).toBe('no_features');
  });
});
