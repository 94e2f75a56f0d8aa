import { describe, expect, it } from 'vitest';
import { parseMapDocument } from '../../lib/geojson/model.js';
import { imageToResolve, linkFeatureMedia } from '../../lib/formats/linkMedia.js';
import type { SkippedItem } from '../../lib/formats/skipped.js';

const doc = () =>
  parseMapDocument({
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { title: 'Icon', marker_id: 'media:0' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { title: 'Photo', image: { id: 'media:1' } } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { image: { id: 'abcdefghijklmnop' } } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { image: { id: 'unknownunknown12' } } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: { image: { id: 'full', w: 1, h: 2, tip_color: '#000000', avg_color: '#ffffff' }, marker_id: 'kept' } },
    ],
  });

const fields = (id: string) => ({ id, w: 10, h: 20, tip_color: '#111111', avg_color: '#222222' });

describe('linkFeatureMedia', () => {
  it('names the image ids that need a lookup or a stored placeholder, leaving complete images out', () => {
    expect(doc().features.map(imageToResolve)).toEqual([undefined, 'media:1', 'abcdefghijklmnop', 'unknownunknown12', undefined]);
  });

  it('points placeholders and bare image ids at stored media, and drops what cannot be linked', () => {
    const d = doc();
    const links = {
      markers: new Map([['media:0', 'MARKER0000000001']]),
      images: new Map([['abcdefghijklmnop', fields('abcdefghijklmnop')]]),
    };
    const notes: SkippedItem[] = [];
    for (const feature of d.features) linkFeatureMedia(feature, links, notes);
    const props = d.features.map((f) => f.properties);
    expect(props[0]!.marker_id).toBe('MARKER0000000001');
    expect(props[1]!.image).toBeUndefined();
    expect(props[2]!.image).toEqual(fields('abcdefghijklmnop'));
    expect(props[3]!.image).toBeUndefined();
    expect(props[4]).toMatchObject({ marker_id: 'kept', image: { id: 'full', w: 1 } });
    expect(notes.map((n) => n.reason)).toEqual([
      `the image of "Photo" is not an image of this service uploaded by the map's owner or an editor; the item was imported without it`,
      `the image of feature 4 is not an image of this service uploaded by the map's owner or an editor; the item was imported without it`,
    ]);
  });
});
