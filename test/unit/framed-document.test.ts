import { describe, expect, it } from 'vitest';
import { frameDocument, hasSequentialIds, joinParts, parseParts, splitFramed } from '../../lib/formats/framedDocument.js';
import { parseMapDocument } from '../../lib/geojson/model.js';

const doc = parseMapDocument({
  type: 'FeatureCollection',
  groups: [{ id: 1, title: 'Line\nbreak' }],
  export: { note: 'two\nlines' },
  features: [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { description: 'a\nb', group: 1 } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [3, 4] }, properties: {} },
  ],
});

describe('framed documents', () => {
  it('split into head and features however many line breaks the values hold', () => {
    const parts = splitFramed(frameDocument(doc));
    expect(JSON.parse(parts.features)).toEqual(doc.features);
    expect(JSON.parse(parts.head)).toEqual({ type: 'FeatureCollection', groups: doc.groups, export: doc.export });
  });

  it('join back into the whole document, parsed or as text', () => {
    const parts = splitFramed(frameDocument(doc));
    expect(parseParts(parts)).toEqual(doc);
    expect(JSON.parse(joinParts(parts))).toEqual(doc);
    expect(JSON.parse(joinParts({ head: '{}', features: '[]' }))).toEqual({ features: [] });
  });

  it('tell whether the features are numbered 1, 2, 3 …', () => {
    expect(hasSequentialIds(doc.features)).toBe(true);
    expect(hasSequentialIds([doc.features[1]!, doc.features[0]!])).toBe(false);
    expect(hasSequentialIds([])).toBe(true);
  });
});
