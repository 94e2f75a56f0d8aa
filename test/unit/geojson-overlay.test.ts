import { describe, it, expect } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { mediaReferences, parseMapDocument } from '../../lib/geojson/model.js';
import { isOverlay, overlayCorners, overlayOpacity, overlayPolygon } from '../../lib/geojson/overlay.js';

const ring = [
  [24.9, 60.1],
  [25.0, 60.1],
  [25.0, 60.2],
  [24.9, 60.2],
  [24.9, 60.1],
];

function overlay(extra: Record<string, unknown> = {}, coordinates: unknown = [ring]): Record<string, unknown> {
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates },
    properties: { overlay: true, image: { id: 'img1' }, opacity: 0.5, ...extra },
  };
}

function invalid(feature: unknown): string {
  try {
    parseMapDocument({ type: 'FeatureCollection', features: [feature] });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_geojson');
    return (error as AppError).message;
  }
  throw new Error('the document was accepted');
}

describe('image overlays in the map document', () => {
  it('keeps an overlay with its image, opacity and corners; its image counts as used', () => {
    const doc = parseMapDocument({ type: 'FeatureCollection', features: [overlay()] });
    const feature = doc.features[0]!;
    expect(isOverlay(feature.properties)).toBe(true);
    expect(feature.properties.opacity).toBe(0.5);
    expect(feature.properties.image).toEqual({ id: 'img1' });
    expect(overlayCorners(feature.geometry)).toEqual(ring.slice(0, 4));
    expect(mediaReferences(doc).images).toEqual(['img1']);
  });

  it('gives an overlay without opacity the opacity 1', () => {
    const doc = parseMapDocument({ type: 'FeatureCollection', features: [overlay({ opacity: undefined })] });
    expect(doc.features[0]!.properties.opacity).toBe(1);
    expect(overlayOpacity({})).toBe(1);
  });

  it('makes the closed ring from four corners', () => {
    expect(overlayPolygon(ring.slice(0, 4) as never).coordinates[0]).toEqual(ring);
  });

  it('refuses an overlay that is not a Polygon of four corners', () => {
    expect(invalid({ ...overlay(), geometry: { type: 'Point', coordinates: [1, 2] } })).toMatch(/feature index 0: an overlay's geometry must be a Polygon of its 4 corners, not a Point/);
    expect(invalid(overlay({}, [[...ring.slice(0, 3), ring[0]]]))).toMatch(/ring has 3 corners; it must have 4/);
    expect(invalid(overlay({}, [ring, ring]))).toMatch(/one ring \(its 4 corners\), not 2/);
  });

  it('refuses an overlay without an uploaded image', () => {
    expect(invalid(overlay({ image: undefined }))).toMatch(/an overlay needs an "image" with the "id" of an uploaded image/);
    expect(invalid(overlay({ image: { id: '' } }))).toMatch(/needs an "image"/);
  });

  it('refuses an opacity outside 0..1 and an overlay mark that is not a boolean', () => {
    expect(invalid(overlay({ opacity: 1.5 }))).toMatch(/"opacity" must be a number from 0 to 1, not 1.5/);
    expect(invalid(overlay({ opacity: '0.5' }))).toMatch(/not "0.5"/);
    expect(invalid(overlay({ overlay: 'yes' }))).toMatch(/"overlay" must be true or false/);
  });

  it('leaves features without the mark alone (a polygon with an image is a polygon)', () => {
    const doc = parseMapDocument({ type: 'FeatureCollection', features: [overlay({ overlay: false, opacity: 7 }, [[...ring.slice(0, 4), [24.85, 60.15], ring[0]]])] });
    expect(isOverlay(doc.features[0]!.properties)).toBe(false);
  });
});
