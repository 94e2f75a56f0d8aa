// A broken JSON import names the line and column of its error (issue 26, item 8), not a byte or
// character position: whether the file is parsed whole, feature by feature, or read from its bytes
// (a large feature), and with characters of more than one byte before the error.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { parseGeoJsonFile } from '../../lib/formats/geojson.js';
import { LARGE_FEATURE_BYTES } from '../../lib/formats/geojsonLarge.js';
import { bytesInput } from '../../lib/formats/input.js';
import { lineAndColumnAt } from '../../lib/formats/jsonLocation.js';
import { FeatureList } from '../../lib/formats/types.js';

function errorOf(text: string): string {
  try {
    parseGeoJsonFile(Buffer.from(text, 'utf8'), new FeatureList());
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error('expected an error');
}

const point = (title: string) => `{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"title": "${title}"}}`;

describe('where a JSON syntax error is', () => {
  it('counts lines by \\n and columns by characters', () => {
    const input = bytesInput(Buffer.from('ab\ncdé\nfg', 'utf8'));
    expect([0, 2, 3, 6, 8, 9].map((offset) => lineAndColumnAt(input, offset))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 3 },
      { line: 2, column: 1 },
      { line: 2, column: 4 },
      { line: 3, column: 1 },
      { line: 3, column: 2 },
    ]);
  });

  it('is named by line and column in a file parsed whole', () => {
    const message = errorOf('{\n  "type": "Feature",\n  "geometry": null\n  "properties": {}\n}');
    expect(message).toMatch(/^the file is not valid JSON: .* at line 4, column 3$/);
    expect(message).not.toMatch(/position|byte/);
  });

  it('is named by line and column in a feature of a collection read one feature at a time', () => {
    const lines = ['{"type": "FeatureCollection", "features": [', `${point('Café à Zürich')},`, `${point('Two')},`, '{"type": "Feature", "geometry": null, "properties": {"title": tru}}', ']}'];
    // Node 20's engine says where some errors are, and not others: then where the feature begins.
    const message = errorOf(lines.join('\n'));
    expect(message).toMatch(/^the file is not valid JSON: .*(at line 4, column 61 \(in feature index 2\)|\(in feature index 2, which begins at line 4, column 1\))$/);
    const missing = errorOf([lines[0], lines[1], '{"type": "Feature", "geometry": null "properties": {}}', ']}'].join('\n'));
    // A feature whose structure is broken: the file is parsed whole, for the engine's message.
    expect(missing).toBe("the file is not valid JSON: Expected ',' or '}' after property value at line 3, column 38");
  });

  it('is named by line and column in a large feature read from its bytes', () => {
    const coordinates = Array.from({ length: Math.ceil(LARGE_FEATURE_BYTES / 20) }, (_, i) => `[${i % 90}.5, ${i % 45}.25]`).join(',\n');
    const text = `{"type": "FeatureCollection", "features": [\n${point('é')},\n{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [\n${coordinates},\n[1 2]]}}]}`;
    const line = text.split('\n').findIndex((row) => row === '[1 2]]}}]}') + 1;
    expect(errorOf(text)).toMatch(new RegExp(`^the file is not valid JSON: .* at line ${line}, column 4 \\(in feature index 1\\)$`));
  });
});
