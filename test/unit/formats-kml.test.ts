import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { byTitle, bytesOf, errorOf } from '../support/parsing.js';
import { AppError } from '../../lib/errors.js';
import { FeatureFileWriter } from '../../lib/formats/documentFile.js';
import { parseRowLine } from '../../lib/formats/featureRows.js';
import { parseKml } from '../../lib/formats/kml.js';
import { FeatureList, type ParsedFile } from '../../lib/formats/types.js';
import { kmlColorToHex } from '../../lib/formats/xml/color.js';
import { parseNumber } from '../../lib/formats/xml/numbers.js';
import { parseCoordinateList } from '../../lib/formats/xml/positions.js';
import { parseMapDocument, type MapFeature } from '../../lib/geojson/model.js';

const fixture = (name: string): Uint8Array => readFileSync(new URL(`../fixtures/kml/${name}`, import.meta.url));
const options = { publicUrl: 'http://localhost:3000' };

/** Parses, and checks the document passes parseMapDocument unchanged in meaning. */
function parse(bytes: Uint8Array | string): ParsedFile {
  const input = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const result = parseKml(input, options) as ParsedFile;
  const validated = parseMapDocument(JSON.parse(JSON.stringify(result.document)));
  expect(validated).toEqual(JSON.parse(JSON.stringify(result.document)));
  const ids = result.document.features.map((feature) => feature.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(Number.isSafeInteger(id)).toBe(true);
  return result;
}

const parseError = (bytes: Uint8Array | string): AppError => errorOf(() => parseKml(bytesOf(bytes), options));


const kml = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`;

describe('Google Earth KML', () => {
  const result = parse(fixture('google-earth.kml'));
  const { features, groups } = result.document;

  it('converts every placemark, in order, with integer ids', () => {
    expect(features.map((feature) => feature.properties.title)).toEqual([
      'Hotel Alpenblick',
      'Walk to the lake',
      'Stellisee',
      'Secret spot',
      'Viewpoints',
      'Area and path',
      'Top-level pin',
    ]);
    expect(features.map((feature) => feature.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(result.skipped).toEqual([]);
    expect(result.media).toEqual([]);
  });

  it('turns folders into groups and nested folders into subgroups; the Document is no group', () => {
    expect(groups).toEqual([
      { id: 1, title: 'Day 1' },
      { id: 2, title: 'Lakes', parent: 1 },
      { id: 3, title: 'Folder' },
    ]);
    expect(byTitle(result, 'Hotel Alpenblick').properties.group).toBe(1);
    expect(byTitle(result, 'Stellisee').properties.group).toBe(2);
    expect(byTitle(result, 'Viewpoints').properties.group).toBe(3);
    expect(byTitle(result, 'Top-level pin').properties).not.toHaveProperty('group');
  });

  it('keeps coordinates with altitude, CDATA descriptions and ExtendedData', () => {
    const hotel = byTitle(result, 'Hotel Alpenblick');
    expect(hotel.geometry).toEqual({ type: 'Point', coordinates: [7.7491, 46.0207, 1608] });
    expect(hotel.properties.description).toBe(
      '<p>Check-in from <b>15:00</b></p><a href="https://example.org/hotel">Website</a>',
    );
    expect(hotel.properties.stars).toBe('4');
    // ExtendedData never replaces the name, and __proto__ never reaches a prototype.
    expect(hotel.properties.title).toBe('Hotel Alpenblick');
    expect(Object.getPrototypeOf(hotel.properties)).toBe(Object.prototype);
    expect(Object.hasOwn(hotel.properties, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('resolves StyleMaps, shared and inline styles into #rrggbb colours and line widths', () => {
    // StyleMap normal → s_ylw-pushpin, IconStyle ff00aaff (aabbggrr) → #ffaa00.
    expect(byTitle(result, 'Hotel Alpenblick').properties.color).toBe('#ffaa00');
    const walk = byTitle(result, 'Walk to the lake');
    expect(walk.properties.color).toBe('#ff0000');
    expect(walk.properties['stroke-width']).toBe(4);
    // Polygons: PolyStyle colour (7fffaa00 → #00aaff), LineStyle width.
    const lake = byTitle(result, 'Stellisee');
    expect(lake.properties.color).toBe('#00aaff');
    expect(lake.properties['stroke-width']).toBe(2);
    // Inline style on a MultiGeometry of points: the IconStyle colour; no line width on points.
    const viewpoints = byTitle(result, 'Viewpoints');
    expect(viewpoints.properties.color).toBe('#00ff00');
    expect(viewpoints.properties).not.toHaveProperty('stroke-width');
    expect(byTitle(result, 'Secret spot').properties).not.toHaveProperty('color');
  });

  it('keeps polygon holes and closes unclosed rings', () => {
    const lake = byTitle(result, 'Stellisee');
    expect(lake.geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [7.8, 46.02],
          [7.82, 46.02],
          [7.82, 46.04],
          [7.8, 46.04],
          [7.8, 46.02],
        ],
        [
          [7.805, 46.025],
          [7.81, 46.025],
          [7.81, 46.03],
          [7.805, 46.025],
        ],
      ],
    });
  });

  it('turns MultiGeometry into Multi* or a GeometryCollection', () => {
    expect(byTitle(result, 'Viewpoints').geometry).toEqual({
      type: 'MultiPoint',
      coordinates: [
        [7.71, 46.11, 2000],
        [7.72, 46.12, 2100],
      ],
    });
    const mixed = byTitle(result, 'Area and path');
    expect(mixed.geometry.type).toBe('GeometryCollection');
    expect(mixed.properties.color).toBe('#00aaff');
  });

  it('marks hidden placemarks and keeps TimeStamps', () => {
    expect(byTitle(result, 'Secret spot').properties.visible).toBe(false);
    expect(byTitle(result, 'Hotel Alpenblick').properties).not.toHaveProperty('visible');
    expect(byTitle(result, 'Top-level pin').properties.time).toBe('2024-07-01T09:30:00Z');
  });
});

describe('Google My Maps KML', () => {
  const result = parse(fixture('my-maps.kml'));

  it('reads layers as groups, icon colours through StyleMaps, ExtendedData', () => {
    expect(result.document.groups).toEqual([
      { id: 1, title: 'Cafés' },
      { id: 2, title: 'Walks' },
    ]);
    const central = byTitle(result, 'Café Central');
    expect(central.geometry).toEqual({ type: 'Point', coordinates: [16.365, 48.2104, 0] });
    expect(central.properties).toEqual({
      title: 'Café Central',
      description: 'Best Melange in town<br>Open daily',
      Rating: '5',
      Website: 'https://example.org/central',
      group: 1,
      color: '#0288d1',
    });
    const walk = byTitle(result, 'Ring walk');
    expect(walk.properties.color).toBe('#e65100');
    expect(walk.properties['stroke-width']).toBe(5);
    expect(walk.properties.group).toBe(2);
    const oldTown = byTitle(result, 'Old town');
    expect(oldTown.properties.color).toBe('#000000');
    expect(oldTown.properties['stroke-width']).toBe(1.2);
  });

  it('reports placemarks without coordinates with their line', () => {
    expect(result.document.features).toHaveLength(4);
    expect(result.skipped).toEqual([
      { reason: 'placemark "Imported without a place": no geometry with coordinates', line: 148 },
    ]);
  });
});

describe('Google Timeline export (empty Point beside a gx:Track) and long coordinate tuples', () => {
  const result = parse(fixture('google-timeline.kml'));

  it('imports each placemark\'s track as a line with its time span, times and data', () => {
    expect(result.document.features.map((feature) => feature.properties.title)).toEqual(['Walking', 'Googleplex', 'Driving', 'Long tuple pin']);
    const walk = byTitle(result, 'Walking');
    expect(walk.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [-122.084, 37.422, 0],
        [-122.081, 37.424, 0],
        [-122.078, 37.427, 0],
      ],
    });
    expect(walk.properties).toMatchObject({
      begin: '2024-05-01T08:00:00.000Z',
      end: '2024-05-01T08:20:00.000Z',
      Category: 'Walking',
      Distance: '1200',
      times: ['2024-05-01T08:00:00.000Z', '2024-05-01T08:10:00.000Z', '2024-05-01T08:20:00.000Z'],
    });
  });

  it('imports a track of one position as a point, its when as the time', () => {
    const visit = byTitle(result, 'Googleplex');
    expect(visit.geometry).toEqual({ type: 'Point', coordinates: [-122.078, 37.427, 0] });
    expect(visit.properties).toMatchObject({
      begin: '2024-05-01T08:20:00.000Z',
      end: '2024-05-01T12:00:00.000Z',
      time: '2024-05-01T08:20:00.000Z',
      Category: 'Work',
    });
  });

  it('keeps longitude, latitude and altitude of longer tuples and says so once in the report', () => {
    expect(byTitle(result, 'Driving').geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [-122.078, 37.427, 0],
        [-122.05, 37.39, 0],
      ],
    });
    expect(byTitle(result, 'Long tuple pin').geometry).toEqual({ type: 'Point', coordinates: [-122.08, 37.42, 0] });
    expect(result.skipped).toEqual([
      { line: 75, reason: 'placemark "Nothing recorded": a Point has no coordinates' },
      {
        line: 53,
        reason: '3 positions had more than 3 numbers; longitude, latitude and altitude were kept and the other numbers ignored',
      },
    ]);
  });

  it('reads a tuple of more than three numbers in any list, still refusing a non-number among them', () => {
    const stats = { longTuples: 0 };
    expect(parseCoordinateList('-122.08,37.42,0,20 1,2,3,4,5', stats)).toEqual([
      [-122.08, 37.42, 0],
      [1, 2, 3],
    ]);
    expect(stats.longTuples).toBe(2);
    expect(parseCoordinateList('1,2,3,x')).toBe('"x" is not a number');
    expect(parseCoordinateList('1,2,Infinity,4')).toMatch(/not a number|not a finite number/);
  });

  it('still refuses a file whose only placemark has an empty point and an empty track', () => {
    const error = parseError(kml('<Placemark><name>Empty</name><Point><coordinates/></Point><gx:Track xmlns:gx="http://www.google.com/kml/ext/2.2"/></Placemark>'));
    expect(error.code).toBe('no_features');
    expect(error.message).toContain('a Point has no coordinates');
  });
});

describe('gx:Track', () => {
  const result = parse(fixture('gx-track.kml'));

  it('turns a track into a LineString with its times and array data', () => {
    const run = byTitle(result, 'Morning run');
    expect(run.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [13.405, 52.52, 34],
        [13.4055, 52.5203, 35],
        [13.4061, 52.5207, 35.5],
      ],
    });
    expect(run.properties.times).toEqual(['2024-05-01T06:00:00Z', '2024-05-01T06:00:10Z', '2024-05-01T06:00:20Z']);
    expect(run.properties.heartrate).toEqual(['120', '131', '135']);
    expect(run.properties.color).toBe('#ff0000');
    expect(run.properties['stroke-width']).toBe(3);
  });

  it('turns a MultiTrack into a MultiLineString with a list of times per track', () => {
    const ride = byTitle(result, 'Two-part ride');
    expect(ride.geometry).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [
          [13.3, 52.5],
          [13.31, 52.51],
        ],
        [
          [13.32, 52.52],
          [13.33, 52.53],
        ],
      ],
    });
    expect(ride.properties.times).toEqual([
      ['2024-05-02T10:00:00Z', '2024-05-02T10:01:00Z'],
      ['2024-05-02T11:00:00Z', '2024-05-02T11:01:00Z'],
    ]);
  });
});

describe('invalid coordinates', () => {
  const result = parse(fixture('bad-coordinates.kml'));

  it('imports the good placemarks and the closable triangle', () => {
    expect(result.document.features.map((feature) => feature.properties.title)).toEqual([
      'Good',
      'Triangle without closing',
    ]);
    expect(byTitle(result, 'Triangle without closing').geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [10, 50],
          [11, 50],
          [11, 51],
          [10, 50],
        ],
      ],
    });
  });

  it('skips every other placemark with its line and reason; no NaN is stored', () => {
    expect(result.skipped).toEqual([
      { line: 8, reason: 'placemark "Letters": Point coordinates: "abc" is not a number' },
      { line: 12, reason: 'placemark "Not a number": Point coordinates: "NaN" is not a number' },
      { line: 16, reason: 'placemark "Huge": Point coordinates: position 1: a coordinate is not a finite number' },
      { line: 20, reason: 'placemark "North of the pole": Point coordinates: position 1: latitude 95 is outside -90..90' },
      {
        line: 24,
        reason: 'placemark "Single value": Point coordinates: position 1 has a single number; longitude and latitude are needed',
      },
      { line: 28, reason: 'placemark "Empty": a Point has no coordinates' },
      { line: 32, reason: 'placemark "Short line": a LineString has 1 position; a line needs at least 2' },
      {
        line: 40,
        reason: 'placemark "Two points ring": a ring has 2 distinct positions; a polygon ring needs at least 3',
      },
      { line: 44, reason: 'placemark "No geometry": no geometry with coordinates' },
      {
        line: 48,
        reason: 'placemark "Half broken": Point coordinates: position 1: latitude -91 is outside -90..90',
      },
    ]);
    expect(JSON.stringify(result.document)).not.toMatch(/NaN|null/);
  });
});

describe('KML details', () => {
  it('reads styles defined after their use, StyleMaps with inline styles and chains of StyleMaps', () => {
    const result = parse(
      kml(`
      <Placemark><name>a</name><styleUrl>#late</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name>b</name><styleUrl>#map2</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name>c</name><styleUrl>#loop</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Style id="late"><IconStyle><color>FF112233</color></IconStyle></Style>
      <StyleMap id="map1"><Pair><key>normal</key><Style><IconStyle><color>ff445566</color></IconStyle></Style></Pair></StyleMap>
      <StyleMap id="map2"><Pair><key>normal</key><styleUrl>#map1</styleUrl></Pair></StyleMap>
      <StyleMap id="loop"><Pair><key>normal</key><styleUrl>#loop</styleUrl></Pair></StyleMap>`),
    );
    expect(result.document.features.map((feature) => feature.properties.color)).toEqual(['#332211', '#665544', undefined]);
  });

  it('keeps the file order when a placemark waits for a style defined after it', () => {
    const sink = new FeatureList();
    parseKml(
      new TextEncoder().encode(
        kml(`
      <Style id="early"><IconStyle><color>ff000001</color></IconStyle></Style>
      <Placemark><name>a</name><styleUrl>#early</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name>b</name><styleUrl>#late</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name>c</name><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Placemark><name>d</name><styleUrl>#early</styleUrl><Point><coordinates>1,2</coordinates></Point></Placemark>
      <Style id="late"><IconStyle><color>ff000002</color></IconStyle></Style>`),
      ),
      { publicUrl: 'http://localhost', sink },
    );
    expect(sink.features.map((f) => [f.id, f.properties.title, f.properties.color])).toEqual([
      [1, 'a', '#010000'],
      [2, 'b', '#020000'],
      [3, 'c', undefined],
      [4, 'd', '#010000'],
    ]);
  });

  it('hides placemarks of hidden folders, and names unnamed folders "Folder"', () => {
    const result = parse(
      kml(`<Folder><visibility>0</visibility><Folder><Placemark><name>x</name><Point><coordinates>1,2</coordinates></Point></Placemark></Folder></Folder>`),
    );
    expect(result.document.groups).toEqual([
      { id: 1, title: 'Folder' },
      { id: 2, title: 'Folder', parent: 1 },
    ]);
    expect(result.document.features[0]?.properties).toEqual({ title: 'x', group: 2, visible: false });
  });

  it('accepts a namespace prefix on KML elements, entities and several text pieces', () => {
    const result = parse(`<?xml version="1.0"?>
      <kml:kml xmlns:kml="http://www.opengis.net/kml/2.2"><kml:Placemark>
        <kml:name>Fish &amp; Chips &#x2764; <![CDATA[<shop>]]></kml:name>
        <kml:Point><kml:coordinates> 1.5 , 2.5 , 3 </kml:coordinates></kml:Point>
      </kml:Placemark></kml:kml>`);
    const feature = result.document.features[0] as MapFeature;
    expect(feature.properties.title).toBe('Fish & Chips ❤ <shop>');
    expect(feature.geometry).toEqual({ type: 'Point', coordinates: [1.5, 2.5, 3] });
  });

  it('drops ExtendedData that would replace its own properties or touch prototypes', () => {
    const result = parse(
      kml(`<Placemark><name>p</name><ExtendedData>
        <Data name="description"><value>d</value></Data><Data name="group"><value>99</value></Data>
        <Data name="color"><value>red</value></Data><Data name="constructor"><value>c</value></Data>
        <Data name="prototype"><value>p</value></Data><Data name="__proto__"><value>x</value></Data>
        <Data name="toString"><value>ok</value></Data>
        <SchemaData schemaUrl="#s"><SimpleData name="kind">shop</SimpleData><SimpleData name="__proto__">y</SimpleData></SchemaData>
      </ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>`),
    );
    const properties = result.document.features[0]?.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['title', 'toString', 'kind']);
    expect(properties.toString).toBe('ok');
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it('never cuts a surrogate pair when quoting a long title in a skip reason', () => {
    const title = `${'a'.repeat(59)}😀 and more`;
    const result = parse(kml(`<Placemark><name>${title}</name><Point><coordinates>x</coordinates></Point></Placemark>
      <Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>`));
    const reason = result.skipped[0]?.reason ?? '';
    expect(reason).toBe(`placemark "${'a'.repeat(59)}…": Point coordinates: "x" is not a number`);
    expect((reason as unknown as { isWellFormed(): boolean }).isWellFormed()).toBe(true);
  });

  it('keeps a long LineString compactly and writes it as the short-line path would', () => {
    const points = Array.from({ length: 60_000 }, (_, i) => [((i % 3600) / 10) - 180, ((i % 1700) / 10) - 85, i % 7 === 0 ? 12.5 : undefined]);
    const text = points.map(([x, y, z]) => (z === undefined ? `${x},${y}` : `${x},${y},${z}`)).join(' ');
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const lines = [`<Placemark><name>Long</name><LineString><coordinates>${text}</coordinates></LineString></Placemark>`,
      `<Placemark><name>Two</name><MultiGeometry><LineString><coordinates>${text}</coordinates></LineString><LineString><coordinates>1,2 3,4</coordinates></LineString></MultiGeometry></Placemark>`];
    const result = parse(kml(lines.join('')));
    const positions = points.map(([x, y, z]) => (z === undefined ? [x, y] : [x, y, z]));
    expect(result.document.features[0]?.geometry).toEqual({ type: 'LineString', coordinates: positions });
    expect(result.document.features[1]?.geometry).toEqual({ type: 'MultiLineString', coordinates: [positions, [[1, 2], [3, 4]]] });
    // Written to a document file piece by piece: the same text.
    const out = join(mkdtempSync(join(tmpdir(), 'mps-kml-')), 'document');
    const writer = new FeatureFileWriter(out);
    parseKml(new TextEncoder().encode(kml(lines.join(''))), { ...options, sink: writer });
    writer.finish({ type: 'FeatureCollection', groups: [] });
    const written = readFileSync(out, 'utf8').split('\n').slice(0, 2).map((line) => JSON.parse(parseRowLine(line).text));
    expect(written).toEqual(result.document.features);
    rmSync(dirname(out), { recursive: true, force: true });
    // The same problems, with the same words, as a short line.
    const broken = `${text} 5,abc`;
    const skipped = parse(kml(`<Placemark><name>Bad</name><LineString><coordinates>${broken}</coordinates></LineString></Placemark><Placemark><name>Ok</name><Point><coordinates>1,2</coordinates></Point></Placemark>`)).skipped;
    expect(skipped[0]?.reason).toBe('placemark "Bad": LineString coordinates: "abc" is not a number');
    expect(parseCoordinateList(broken)).toBe('"abc" is not a number');
  });

  it('turns a LinearRing on its own into a closed LineString', () => {
    const result = parse(kml(`<Placemark><LinearRing><coordinates>0,0 1,0 1,1</coordinates></LinearRing></Placemark>`));
    expect(result.document.features[0]?.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ],
    });
  });

  it('reads ISO-8859-1, windows-1252, UTF-16 (with and without BOM) and UTF-8 with BOM', () => {
    const text = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>
      <kml><Placemark><name>Café “Zürich”</name><Point><coordinates>8.5,47.4</coordinates></Point></Placemark></kml>`;
    const title = (bytes: Uint8Array) => parse(bytes).document.features[0]?.properties.title;
    expect(title(Buffer.from(text('ISO-8859-1').replace(/[“”]/g, '"'), 'latin1'))).toBe('Café "Zürich"');
    const cp1252 = Buffer.from(text('windows-1252').replace('“', '\u0093').replace('”', '\u0094'), 'latin1');
    expect(title(cp1252)).toBe('Café “Zürich”');
    expect(title(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text('UTF-16'), 'utf16le')]))).toBe('Café “Zürich”');
    expect(title(Buffer.from(text('UTF-16'), 'utf16le'))).toBe('Café “Zürich”');
    const be = Buffer.from(text('UTF-16'), 'utf16le').swap16();
    expect(title(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('Café “Zürich”');
    expect(title(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text('UTF-8'))]))).toBe('Café “Zürich”');
  });

  it('converts KML colours (aabbggrr) to #rrggbb', () => {
    expect(kmlColorToHex('ff0000ff')).toBe('#ff0000');
    expect(kmlColorToHex(' 7FFFAA00 ')).toBe('#00aaff');
    expect(kmlColorToHex('#ff123456')).toBe('#563412');
    expect(kmlColorToHex('123456')).toBe('#563412');
    expect(kmlColorToHex('red')).toBeUndefined();
    expect(kmlColorToHex('')).toBeUndefined();
  });

  it('reads numbers exactly as Number() does', () => {
    const samples = ['0', '-0.5', '12.345678901234', '-122.0842700000000', '1e3', '.5', '5.', '+7', '0.1', '179.99999999999997', '1e400'];
    for (const sample of samples) expect(parseNumber(sample)).toBe(Number(sample));
    for (const bad of ['', '-', '1.2.3', 'abc', 'NaN', 'Infinity', '1e', '0x10']) expect(parseNumber(bad)).toBeNaN();
    for (let i = 0; i < 2000; i++) {
      const value = (Math.random() - 0.5) * 360;
      for (const digits of [1, 6, 7, 12, 15]) {
        const text = value.toFixed(digits);
        expect(parseNumber(text)).toBe(Number(text));
      }
    }
    expect(parseCoordinateList('1,2,3\n\t4,5 ')).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(parseCoordinateList('1,2,3,4')).toEqual([[1, 2, 3]]);
    expect(parseCoordinateList('1,2,')).toBe('position 1 ends with a comma');
    expect(parseCoordinateList('1;2')).toBe('";2" is not a number');
  });
});

describe('bad KML input', () => {
  const timed = (work: () => unknown): number => {
    const started = performance.now();
    work();
    return performance.now() - started;
  };

  it('refuses a billion-laughs DOCTYPE fast', () => {
    let error: AppError | undefined;
    const elapsed = timed(() => {
      error = parseError(fixture('billion-laughs.kml'));
    });
    expect(error?.code).toBe('doctype_not_allowed');
    expect(elapsed).toBeLessThan(200);
  });

  it('refuses external entities (after a comment, lower-case doctype) without reading anything', () => {
    const error = parseError(fixture('external-entity.kml'));
    expect(error.code).toBe('doctype_not_allowed');
    expect(error.message).not.toMatch(/root:/);
  });

  it('refuses a DOCTYPE the prolog scan cannot see (after a processing instruction)', () => {
    const error = parseError('<?xml version="1.0"?><?pi x?><!DOCTYPE kml><kml/>');
    expect(error.code).toBe('doctype_not_allowed');
  });

  it('reports malformed XML with line and column, never a partial import', () => {
    const error = parseError(fixture('malformed.kml'));
    expect(error.code).toBe('invalid_file');
    expect(error.message).toMatch(/not well-formed XML: .*\(line 9, column \d+\)/);
    expect(parseError(fixture('bad-attribute.kml')).message).toMatch(/line 4/);
    expect(parseError('<kml><Placemark><name>a</name><Point><coordinates>1,2</coordinates></Point></Placemark><</kml>').code).toBe(
      'invalid_file',
    );
    expect(parseError(kml('<Placemark><name>&undefined;</name></Placemark>')).message).toMatch(/undefined entity/);
  });

  it('reports a truncated file', () => {
    const whole = readFileSync(new URL('../fixtures/kml/google-earth.kml', import.meta.url), 'utf8');
    for (const cut of [200, 1500, whole.length - 20, whole.length - 7]) {
      const error = parseError(whole.slice(0, cut));
      expect(error.code).toBe('invalid_file');
      expect(error.message).toMatch(/not well-formed XML/);
    }
  });

  it('refuses two roots and a wrong root', () => {
    const two = parseError(fixture('two-roots.kml'));
    expect(two.code).toBe('invalid_file');
    expect(two.message).toMatch(/root/);
    const html = parseError(fixture('html-root.kml'));
    expect(html.code).toBe('invalid_file');
    expect(html.message).toMatch(/root element is <html>, not <kml>/);
    expect(parseError('<?xml version="1.0"?><gpx/>').message).toMatch(/<gpx>/);
  });

  it('stops 100,000-deep nesting quickly with too_deep', () => {
    const depth = 100_000;
    const text = `<kml><Document>${'<Folder>'.repeat(depth)}${'</Folder>'.repeat(depth)}</Document></kml>`;
    let error: AppError | undefined;
    const elapsed = timed(() => {
      error = parseError(text);
    });
    expect(error?.code).toBe('too_deep');
    expect(elapsed).toBeLessThan(1000);
    // 150 levels are fine.
    const fine = `<kml>${'<Folder>'.repeat(150)}<Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>${'</Folder>'.repeat(150)}</kml>`;
    expect(parse(fine).document.groups).toHaveLength(150);
  });

  it('refuses a file of only NetworkLinks with no_features, fetching nothing', () => {
    const error = parseError(fixture('network-links.kml'));
    expect(error.code).toBe('no_features');
    expect(error.message).toBe(
      'the KML file holds no placemarks, only 2 NetworkLinks (links to other files, which are never fetched)',
    );
    expect(parseError(kml('')).message).toBe('the KML file holds no placemarks');
    const noPlace = parseError(kml('<Placemark><name>x</name></Placemark>'));
    expect(noPlace.code).toBe('no_features');
    expect(noPlace.message).toMatch(/none of the 1 placemark .*line 2: placemark "x": no geometry/);
  });

  it('refuses NUL bytes, invalid UTF-8, unknown encodings, empty files and binary files', () => {
    const nul = parseError(Buffer.concat([Buffer.from('<kml>\n<Placemark>'), Buffer.from([0]), Buffer.from('</Placemark></kml>')]));
    expect(nul.code).toBe('invalid_file');
    expect(nul.message).toMatch(/NUL character \(line 2\)/);
    const invalid = parseError(Buffer.concat([Buffer.from('<kml><name>'), Buffer.from([0xc3, 0x28]), Buffer.from('</name></kml>')]));
    expect(invalid.code).toBe('invalid_file');
    expect(invalid.message).toMatch(/not valid UTF-8/);
    expect(parseError('<?xml version="1.0" encoding="x-klingon"?><kml/>').message).toMatch(/encoding "x-klingon"/);
    expect(parseError('').message).toMatch(/empty/);
    expect(parseError('  \n ').message).toMatch(/empty/);
    const png = parseError(readFileSync(new URL('../fixtures/kmz/files/icon.png', import.meta.url)));
    expect(png.code).toBe('unsupported_type');
    expect(png.message).toMatch(/PNG image/);
  });

  it('survives 200,000 adjacent CDATA sections and text pieces', () => {
    const pieces = '<![CDATA[a]]>b'.repeat(200_000);
    let result: ParsedFile | undefined;
    const elapsed = timed(() => {
      result = parse(kml(`<Placemark><description>${pieces}</description><Point><coordinates>1,2</coordinates></Point></Placemark>`));
    });
    expect((result?.document.features[0]?.properties.description as string).length).toBe(400_000);
    expect(elapsed).toBeLessThan(5000);
  });

  it('fails fast on megabytes of broken tag names (no recovery, so nothing quadratic)', () => {
    const junk = `<kml>${'<a<b c<'.repeat(800_000)}</kml>`;
    let error: AppError | undefined;
    const elapsed = timed(() => {
      error = parseError(junk);
    });
    expect(error?.code).toBe('invalid_file');
    expect(error?.message).toMatch(/line 1, column \d+/);
    expect(elapsed).toBeLessThan(500);
  });

  it('lists at most 100 skipped items and counts the rest', () => {
    const broken = '<Placemark><Point><coordinates>x</coordinates></Point></Placemark>'.repeat(1500);
    const result = parse(kml(`${broken}<Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>`));
    expect(result.skipped).toHaveLength(101);
    expect(result.skipped[100]).toEqual({ reason: 'and 1400 more items skipped' });
  });
});

describe('the name of a KML file', () => {
  it('is the name of its first Document, without the file extension Google Earth adds', () => {
    const placemark = '<Placemark><name>P</name><Point><coordinates>1,2</coordinates></Point></Placemark>';
    expect(parse(`<kml><Document><name>Alpine trip.kml</name>${placemark}</Document></kml>`).name).toBe('Alpine trip');
    expect(parse(`<kml><Document><name>Walks</name><Folder><name>F</name>${placemark}</Folder></Document></kml>`).name).toBe('Walks');
    expect(parse(`<kml>${placemark}</kml>`).name).toBeUndefined();
  });
});
