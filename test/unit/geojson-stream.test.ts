import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { parseGeoJsonFile } from '../../lib/formats/geojson.js';
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
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()},{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":tru}}]}`)).toMatch(/^the file is not valid JSON: .*\(in feature index 1\)$/);
  });

  it('explains broken structure as a parse of the whole file does', () => {
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()} ${point()}]}`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()}]} trailing`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf(`{"type":"FeatureCollection","features":[${point()}`)).toMatch(/^the file is not valid JSON: /);
    expect(errorOf('{"type":"FeatureCollection","features":{}}')).toContain('FeatureCollection with a "features" list');
  });
});
