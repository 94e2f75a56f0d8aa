import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { parseGeoJsonFile } from '../../lib/formats/geojson.js';
import { bytesInput, type FileInput } from '../../lib/formats/input.js';
import { FeatureList } from '../../lib/formats/types.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const point = (extra = '') => `{"type":"Feature"${extra},"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}`;

function streamed(text: string) {
  const sink = new FeatureList();
  const document = parseGeoJsonFile(bytes(text), sink);
  return { document, features: sink.features };
}

function errorOf(text: string): string {
  try {
    parseGeoJsonFile(bytes(text), new FeatureList());
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error('expected an error');
}

describe('GeoJSON FeatureCollections, one feature at a time', () => {
  it('hands every feature to the sink and keeps the rest of the document', () => {
    const text = `{"features":[${point(',"id":7')},${point()}],"name":"Layer","type":"FeatureCollection","groups":[{"id":1,"title":"G"}]}`;
    const { document, features } = streamed(text);
    expect(document.features).toEqual([]);
    expect(document.groups).toEqual([{ id: 1, title: 'G' }]);
    expect(document.name).toBe('Layer');
    // The feature without an id gets one after the largest id of the whole file.
    expect(features.map((f) => f.id)).toEqual([7, 8]);
  });

  it('gives the same document as parsing the file whole', () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'a "quoted" [bracket] {brace} \\ back', group: 'g' } },
        { type: 'Feature', id: 3, geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: { id: 99, nested: { id: 5 } } },
      ],
      groups: [{ id: 'g', title: 'Zürich ✓' }],
    });
    const whole = parseGeoJsonFile(bytes(text));
    const { document, features } = streamed(text);
    expect({ ...document, features }).toEqual(whole);
    expect(features.map((f) => f.id)).toEqual([4, 3]);
  });

  it('reads ids written with escapes, and takes the last of repeated keys as JSON.parse does', () => {
    const { features } = streamed(`{"type":"FeatureCollection","features":[${point(',"\\u0069d":5')},${point(',"id":1,"id":2')}]}`);
    expect(features.map((f) => f.id)).toEqual([5, 2]);
    const later = streamed(`{"type":"FeatureCollection","features":[${point()}],"features":[${point(',"id":4')},${point(',"id":6')}]}`);
    expect(later.features.map((f) => f.id)).toEqual([4, 6]);
  });

  it('refuses duplicate ids, undefined groups and broken features with the feature named', () => {
    expect(errorOf(`{"type":"FeatureCollection","features":[${point(',"id":2')},${point(',"id":2')}]}`)).toContain('id 2 is already used by feature index 0');
    expect(errorOf(`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"group":9}}]}`)).toContain('names group 9');
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()},{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":tru}}]}`)).toMatch(/^the file is not valid JSON: .*\(in feature index 1(, which begins at line 1, column \d+)?\)$/);
  });

  it('explains keys with bad escapes as a parse of the whole file does', () => {
    expect(errorOf('{"type":"FeatureCollection","\\x":1,"features":[]}')).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[{"ty\npe":"Feature"}]}`)).toMatch(/^the file is not valid JSON: /);
  });

  it('explains broken structure as a parse of the whole file does', () => {
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()} ${point()}]}`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()}]} trailing`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()}`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf('{"type":"FeatureCollection","features":{}}')).toContain('FeatureCollection with a "features" list');
  });
});

describe('GeoJSON FeatureCollections read through a window of the file', () => {
  // Far longer than the 64 kB window: features cross its end everywhere, one is longer than it.
  const feature = (index: number) =>
    JSON.stringify({
      type: 'Feature',
      id: index + 1,
      geometry: { type: 'Point', coordinates: [index % 180, (index % 90) / 2] },
      properties: { title: `Place ${index} "quoted" \\ [x] {y}`, note: 'é'.repeat(index % 7) },
    });
  const longLine = JSON.stringify({
    type: 'Feature',
    geometry: { type: 'LineString', coordinates: Array.from({ length: 20_000 }, (_, index) => [index / 1000, index / 2000]) },
    properties: { title: 'long' },
  });
  const features = Array.from({ length: 3000 }, (_, index) => (index === 1500 ? longLine : feature(index)));
  const groups = JSON.stringify(Array.from({ length: 3000 }, (_, index) => ({ id: `g${index}`, title: `Group ${index}` })));

  it('gives the same document as parsing the file whole, wherever the window ends', () => {
    const text = `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n],"groups":${groups},"name":"Big"}${' '.repeat(70_000)}\n`;
    expect(text.length).toBeGreaterThan(10 * 64 * 1024);
    // bytes() is how a file is read whole (the fallback for broken structure): never here.
    const input: FileInput = { ...bytesInput(bytes(text)), bytes: () => expect.fail('the file was read whole') };
    const sink = new FeatureList();
    const document = parseGeoJsonFile(input, sink);
    const streamedFeatures = sink.features;
    const whole = parseGeoJsonFile(bytes(JSON.stringify(JSON.parse(text))));
    expect({ ...document, features: streamedFeatures }).toEqual(whole);
    expect(streamedFeatures).toHaveLength(3000);
    expect(streamedFeatures[1500]?.id).toBe(3001);
  });

  it('reads the same through windows of any size, and never reads the file whole', () => {
    const text =
      ` \n{ "type" : "FeatureCollection" , "name":"n\\"]}" ,\n "features" : [ \n` +
      [point(',"id":7'), `{"properties":{"a":[1,{"b":"}]"}],"e":-1.5e3},"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}`, point(',"\\u0069d":9')].join(' ,\n ') +
      ` ] , "groups" : [ {"id":1,"title":"G"} ] , "n" : 12345 , "t" : true } \n `;
    const whole = parseGeoJsonFile(bytes(text));
    for (let size = 1; size <= 64; size++) {
      const input: FileInput = { ...bytesInput(bytes(text)), bytes: () => expect.fail(`the file was read whole (window of ${size})`) };
      const sink = new FeatureList();
      const document = parseGeoJsonFile(input, sink, size);
      expect({ ...document, features: sink.features }).toEqual(whole);
    }
  });

  it('still explains broken structure far into the file as a parse of the whole file does', () => {
    const body = features.slice(0, 2000).join(',');
    expect(errorOf(`{"type":"FeatureCollection","features":[${body}}`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[${body}]}${' '.repeat(100_000)}x`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[${body}`)).toMatch(/^the file is not valid JSON: /);
  });
});
