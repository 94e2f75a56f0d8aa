import fs, { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { byTitle, bytesOf, errorOf } from '../support/parsing.js';
import { AppError } from '../../lib/errors.js';
import { FeatureFileWriter } from '../../lib/formats/documentFile.js';
import { parseRowLine } from '../../lib/formats/featureRows.js';
import { parseGpx } from '../../lib/formats/gpx.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import { parseMapDocument, type MapFeature } from '../../lib/geojson/model.js';

const fixture = (name: string): Uint8Array => readFileSync(new URL(`../fixtures/gpx/${name}`, import.meta.url));
const options = { publicUrl: 'http://localhost:3000' };

/** Parses, and checks the document passes parseMapDocument unchanged in meaning. */
function parse(bytes: Uint8Array | string): ParsedFile {
  const input = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const result = parseGpx(input, options) as ParsedFile;
  const plain = JSON.parse(JSON.stringify(result.document));
  expect(parseMapDocument(plain)).toEqual(plain);
  const ids = result.document.features.map((feature) => feature.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(result.media).toEqual([]);
  return result;
}

const parseError = (bytes: Uint8Array | string): AppError => errorOf(() => parseGpx(bytesOf(bytes), options));


const gpx = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">${body}</gpx>`;

describe('GPS device GPX (Garmin)', () => {
  const result = parse(fixture('garmin.gpx'));

  it('turns waypoints into points with ele, time, sym and description', () => {
    expect(result.document.groups).toEqual([]);
    expect(result.skipped).toEqual([]);
    const summit = byTitle(result, 'Zugspitze');
    expect(summit.geometry).toEqual({ type: 'Point', coordinates: [10.985, 47.4215, 2962] });
    expect(summit.properties).toEqual({
      title: 'Zugspitze',
      description: 'Summit cross',
      type: 'user',
      sym: 'Summit',
      ele: 2962,
      time: '2024-06-15T10:41:02Z',
    });
    const parking = byTitle(result, 'Parking');
    expect(parking.properties).toEqual({
      title: 'Parking',
      description: 'Paid parking & toilets',
      url: 'https://example.org/parking',
      sym: 'Parking Area',
      ele: 1000.5,
    });
  });

  it('turns a track with two segments into one MultiLineString with times per segment', () => {
    const track = byTitle(result, 'Zugspitze ascent');
    expect(track.geometry).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [
          [10.978, 47.468, 1000.5],
          [10.98, 47.461, 1210],
          [10.983, 47.45, 1500.2],
        ],
        [
          [10.985, 47.43, 2500],
          [10.985, 47.4215, 2962],
        ],
      ],
    });
    expect(track.properties.times).toEqual([
      ['2024-06-15T06:00:00Z', '2024-06-15T06:30:00Z', '2024-06-15T07:10:00Z'],
      ['2024-06-15T09:30:00Z', '2024-06-15T10:40:00Z'],
    ]);
    expect(track.properties.color).toBe('#8b0000');
    expect(result.document.features.map((feature) => feature.id)).toEqual([1, 2, 3]);
  });
});

describe('sports app GPX (Strava)', () => {
  it('turns the one-segment track into a LineString with its times and activity type', () => {
    const result = parse(fixture('strava.gpx'));
    expect(result.document.features).toHaveLength(1);
    const run = result.document.features[0] as MapFeature;
    expect(run.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [-0.124625, 51.500729, 11.2],
        [-0.124112, 51.501011, 11.4],
        [-0.123656, 51.501339, 11.9],
        [-0.123198, 51.501652, 12.1],
      ],
    });
    expect(run.properties).toEqual({
      title: 'Morning Run',
      type: 'running',
      times: ['2024-04-20T07:31:12Z', '2024-04-20T07:31:15Z', '2024-04-20T07:31:18Z', '2024-04-20T07:31:21Z'],
    });
  });
});

describe('routes and broken items', () => {
  const result = parse(fixture('route.gpx'));

  it('turns a route into a LineString', () => {
    expect(result.document.features).toHaveLength(1);
    const route = byTitle(result, 'Canal route');
    expect(route.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [4.8952, 52.3702],
        [4.8922, 52.3731],
        [4.889, 52.376],
      ],
    });
    expect(route.properties).toEqual({ title: 'Canal route', description: 'Along the canal, then back through the park' });
  });

  it('skips short routes, tracks with bad points, empty tracks and bad waypoints, with lines', () => {
    expect(result.skipped).toEqual([
      { line: 10, reason: 'route "Too short": 1 point; a line needs at least 2' },
      { line: 14, reason: 'track "Broken track": the point on line 18: latitude 152.37 is outside -90..90' },
      { line: 21, reason: 'track "Empty track": no points' },
      { line: 24, reason: 'waypoint "Bad waypoint": a coordinate is not a number' },
    ]);
  });
});

describe('GPX details', () => {
  it('reads GPX 1.0 in ISO-8859-1 with its url element', () => {
    const text = readFileSync(new URL('../fixtures/gpx/gpx10.gpx', import.meta.url), 'utf8').replace('Caf&#233;', 'Café');
    const result = parse(Buffer.from(text, 'latin1'));
    expect(result.document.features[0]?.properties).toEqual({
      title: 'Tour Eiffel',
      description: 'Café nearby',
      url: 'https://example.org/eiffel',
      ele: 35,
    });
    expect(parse(fixture('gpx10.gpx')).document.features[0]?.properties.description).toBe('Café nearby');
  });

  it('keeps nulls where some points have no time, leaves out one-point segments and ignores non-web links', () => {
    const result = parse(
      gpx(`<trk><name>t</name><link href="javascript:alert(1)"/>
        <trkseg><trkpt lat="1" lon="2"><time>T1</time></trkpt><trkpt lat="1.5" lon="2.5"/></trkseg>
        <trkseg><trkpt lat="3" lon="4"/></trkseg></trk>`),
    );
    const track = result.document.features[0] as MapFeature;
    expect(track.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [2, 1],
        [2.5, 1.5],
      ],
    });
    expect(track.properties).toEqual({ title: 't', times: ['T1', null] });
  });

  it('ignores bad elevations and names of points inside tracks', () => {
    const result = parse(
      gpx(`<wpt lat="1" lon="2"><ele>high</ele><name>w</name></wpt>
        <trk><trkseg><trkpt lat="1" lon="2"><name>not the track</name><ele>5</ele></trkpt><trkpt lat="1" lon="3"/></trkseg></trk>`),
    );
    expect(result.document.features[0]?.geometry).toEqual({ type: 'Point', coordinates: [2, 1] });
    expect(result.document.features[1]?.properties).toEqual({});
    expect(result.document.features[1]?.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [2, 1, 5],
        [3, 1],
      ],
    });
  });
});

describe('bad GPX input', () => {
  it('refuses DOCTYPEs and entities', () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><gpx>&b;</gpx>';
    expect(parseError(laughs).code).toBe('doctype_not_allowed');
    expect(parseError('<!DOCTYPE gpx SYSTEM "http://127.0.0.1:9/x.dtd"><gpx/>').code).toBe('doctype_not_allowed');
  });

  it('reports malformed and truncated XML with a line', () => {
    const malformed = parseError(gpx('\n<wpt lat="1" lon="2"><name>x</wpt>'));
    expect(malformed.code).toBe('invalid_file');
    expect(malformed.message).toMatch(/not well-formed XML: .*line 2/);
    const whole = readFileSync(new URL('../fixtures/gpx/garmin.gpx', import.meta.url), 'utf8');
    const truncated = parseError(whole.slice(0, whole.length - 30));
    expect(truncated.code).toBe('invalid_file');
    expect(parseError(gpx('<wpt lat=1 lon="2"/>')).code).toBe('invalid_file');
  });

  it('refuses a wrong root and several roots', () => {
    expect(parseError('<kml xmlns="http://www.opengis.net/kml/2.2"/>').message).toMatch(/root element is <kml>, not <gpx>/);
    expect(parseError('<gpx></gpx><gpx></gpx>').code).toBe('invalid_file');
    expect(parseError('<html><body>Not found</body></html>').code).toBe('invalid_file');
  });

  it('stops deep nesting with too_deep', () => {
    const depth = 100_000;
    const started = performance.now();
    const error = parseError(`<gpx>${'<extensions>'.repeat(depth)}${'</extensions>'.repeat(depth)}</gpx>`);
    expect(error.code).toBe('too_deep');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses files with nothing to import, saying what it found', () => {
    const empty = parseError(gpx('<metadata><name>Nothing</name></metadata>'));
    expect(empty.code).toBe('no_features');
    expect(empty.message).toBe('the GPX file holds no waypoints, routes or tracks');
    const broken = parseError(gpx('<wpt lat="91" lon="0"/><trk><trkseg/></trk>'));
    expect(broken.code).toBe('no_features');
    expect(broken.message).toMatch(/^none of the 2 waypoint, route or tracks .*latitude 91/);
  });

  it('refuses NUL bytes, broken UTF-8 and binary files', () => {
    expect(parseError(Buffer.from('<gpx>\u0000</gpx>')).message).toMatch(/NUL/);
    expect(parseError(Buffer.from([0x3c, 0x67, 0x70, 0x78, 0x3e, 0xff, 0x3c, 0x2f, 0x67, 0x70, 0x78, 0x3e])).message).toMatch(/UTF-8/);
    expect(parseError(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0])).code).toBe('unsupported_type');
  });
});

describe('the name of a GPX file', () => {
  it('is its metadata name, else the name of its one track, else none', () => {
    const track = '<trk><name>Morning Run</name><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1.1" lon="2.1"/></trkseg></trk>';
    expect(parse(`<gpx version="1.1"><metadata><name>Holiday</name></metadata>${track}</gpx>`).name).toBe('Holiday');
    expect(parse(`<gpx version="1.0"><name>Old style</name>${track}</gpx>`).name).toBe('Old style');
    expect(parse(`<gpx version="1.1">${track}</gpx>`).name).toBe('Morning Run');
    expect(parse(`<gpx version="1.1">${track}${track}</gpx>`).name).toBeUndefined();
  });
});

describe('GPX tracks written to a document file', () => {
  /** The features as the parser thread writes them: through a FeatureFileWriter, read back line by line. */
  function writtenFeatures(bytes: Uint8Array): MapFeature[] {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-gpx-file-'));
    try {
      const file = path.join(dir, 'features');
      const writer = new FeatureFileWriter(file);
      parseGpx(bytes, { ...options, sink: writer });
      const { rowBytes } = writer.finish({ type: 'FeatureCollection' } as never);
      const text = fs.readFileSync(file).subarray(0, rowBytes).toString('utf8');
      return text.split('\n').slice(0, -1).map((line) => JSON.parse(parseRowLine(line).text) as MapFeature);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  // Segments of 2,500, 1 (left out) and 3,000 points, some without elevation or time; a route.
  const point = (index: number) =>
    `<trkpt lat="${(47 + index / 1e5).toFixed(6)}" lon="${(8 + index / 1e5).toFixed(6)}">` +
    (index % 3 === 0 ? '' : `<ele>${400 + (index % 50) / 4}</ele>`) +
    (index % 7 === 0 ? '' : `<time>2026-05-01T10:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}Z</time>`) +
    '</trkpt>';
  const segment = (from: number, count: number) => `<trkseg>${Array.from({ length: count }, (_, at) => point(from + at)).join('')}</trkseg>`;
  const long = gpx(
    `<trk><name>Long "ride" \\ ü</name>${segment(0, 2500)}${segment(2500, 1)}${segment(2501, 3000)}</trk>` +
      `<trk><name>One segment</name>${segment(6000, 2100)}</trk>` +
      '<rte><name>Route</name><rtept lat="1" lon="2"/><rtept lat="3" lon="4"><time>2026-05-01T10:00:00Z</time></rtept></rte>',
  );

  it.each([
    ['the Garmin fixture', fixture('garmin.gpx')],
    ['the Strava fixture', fixture('strava.gpx')],
    ['long tracks written in many pieces', new TextEncoder().encode(long)],
  ])('gives the same features as objects: %s', (_label, bytes) => {
    const expected = parse(bytes).document.features;
    expect(writtenFeatures(bytes)).toEqual(expected);
  });

  it('keeps every point of a long track, its gaps and its segments', () => {
    const [ride, single, route] = parse(long).document.features;
    expect(ride?.geometry.type).toBe('MultiLineString');
    const lines = (ride?.geometry as { coordinates: number[][][] }).coordinates;
    expect(lines.map((line) => line.length)).toEqual([2500, 3000]);
    expect(lines[0]?.[0]).toEqual([8, 47]);
    expect(lines[0]?.[1]).toEqual([8.00001, 47.00001, 400.25]);
    const times = ride?.properties.times as (string | null)[][];
    expect(times.map((list) => list.length)).toEqual([2500, 3000]);
    expect(times[0]?.[0]).toBeNull();
    expect(times[0]?.[1]).toBe('2026-05-01T10:00:01Z');
    expect(single?.geometry.type).toBe('LineString');
    expect((single?.properties.times as unknown[]).length).toBe(2100);
    expect(route?.geometry).toEqual({ type: 'LineString', coordinates: [[2, 1], [4, 3]] });
    expect(route?.properties.times).toEqual([null, '2026-05-01T10:00:00Z']);
  });
});
