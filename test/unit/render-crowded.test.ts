// What a big map's image costs (issue 24): paths simplified to half a pixel of the image
// (lib/render/simplify.ts), lines too many to stroke drawn one pixel wide into a raster clipped
// to the image (lib/render/lineRaster.ts), and more than 2,000 points on an image drawn as dots.
import { describe, expect, it } from 'vitest';
import { LineRaster } from '../../lib/render/lineRaster.js';
import { CROWDED_POINTS, crowdedPoints, pointsOnImage } from '../../lib/render/drawFeatures.js';
import { viewOf, STATIC_IMAGE } from '../../lib/render/renderMap.js';
import { Scene } from '../../lib/render/scene.js';
import { simplifyPart } from '../../lib/render/simplify.js';

describe('simplifyPart', () => {
  it('keeps the ends and the corners, drops what lies within the tolerance', () => {
    // A zigzag of 0.1-high teeth on a line to (10, 0), then a corner up to (10, 10).
    const coords: number[] = [];
    for (let i = 0; i <= 100; i++) coords.push(i / 10, i % 2 === 0 ? 0 : 0.1);
    coords.push(10, 5, 10, 10);
    const simplified = simplifyPart(Float64Array.from(coords), 0.5);
    expect(simplified).toHaveLength(6);
    expect([simplified[0], simplified[1], simplified[4], simplified[5]]).toEqual([0, 0, 10, 10]);
    expect(Math.hypot(simplified[2]! - 10, simplified[3]!)).toBeLessThanOrEqual(0.5);
    // Within a tighter tolerance than the teeth, every tooth stays.
    expect(simplifyPart(Float64Array.from(coords), 0.01).length).toBe(coords.length - 2);
  });

  it('keeps every point within the tolerance of the simplified line', () => {
    let state = 7;
    const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const coords = new Float64Array(2000);
    let x = 0;
    let y = 0;
    for (let i = 0; i < coords.length; i += 2) {
      coords[i] = x += random();
      coords[i + 1] = y += random() - 0.5;
    }
    const simplified = simplifyPart(coords, 1);
    expect(simplified.length).toBeLessThan(coords.length / 4);
    const distance = (px: number, py: number, ax: number, ay: number, bx: number, by: number) => {
      const dx = bx - ax;
      const dy = by - ay;
      const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
      return Math.hypot(px - ax - t * dx, py - ay - t * dy);
    };
    for (let i = 0; i < coords.length; i += 2) {
      let nearest = Infinity;
      for (let j = 2; j < simplified.length; j += 2) {
        nearest = Math.min(nearest, distance(coords[i]!, coords[i + 1]!, simplified[j - 2]!, simplified[j - 1]!, simplified[j]!, simplified[j + 1]!));
      }
      expect(nearest).toBeLessThanOrEqual(1 + 1e-9);
    }
  });
});

describe('LineRaster', () => {
  it('draws a segment pixel by pixel, clipped to the image, in its colour', () => {
    const raster = new LineRaster(10, 5);
    const red = LineRaster.pixelOf('#ff0000');
    raster.segment(-20, 2, 40, 2, red); // across the whole image and beyond both sides
    raster.segment(3, -100, 3, -1, red); // wholly above it: nothing
    const pixels = new Uint32Array((raster as unknown as { bytes: Uint8ClampedArray }).bytes.buffer);
    const set = [...pixels.keys()].filter((i) => pixels[i] !== 0);
    expect(set).toEqual(Array.from({ length: 10 }, (_, x) => 2 * 10 + x));
    const bytes = new Uint8Array(pixels.buffer, 20 * 4, 4);
    expect(Array.from(bytes)).toEqual([255, 0, 0, 255]);
  });
});

describe('crowded points', () => {
  it('are more than 2,000 on the image; points off the image do not count', () => {
    const scene = new Scene();
    for (let i = 0; i < CROWDED_POINTS; i++) scene.addFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [2 + (i % 50) / 100, 48 + i / 4000] }, properties: {} });
    const view = viewOf(scene.bounds, STATIC_IMAGE);
    expect(crowdedPoints(pointsOnImage(scene, view, 1))).toBe(false);
    scene.addFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [2.2, 48.2] }, properties: {} });
    expect(crowdedPoints(pointsOnImage(scene, view, 1))).toBe(true);
    // Far outside this view (framed before they were added), ten more points change nothing on it.
    const few = new Scene();
    for (let i = 0; i < 10; i++) few.addFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [2 + i / 100, 48] }, properties: {} });
    const fewView = viewOf(few.bounds, STATIC_IMAGE);
    for (let i = 0; i < CROWDED_POINTS; i++) few.addFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [-120, -40] }, properties: {} });
    expect(pointsOnImage(few, fewView, 1)).toHaveLength(10);
  });
});
