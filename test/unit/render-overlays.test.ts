// Image overlays in the static images (lib/render/overlays.ts): the image laid into its four
// corners — upright, turned a quarter, at its opacity — under the map's other items.
import { loadImage, type Image } from '@napi-rs/canvas';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { basemapById } from '../../lib/basemaps.js';
import { worldX, worldY } from '../../lib/render/mercator.js';
import { renderMapImage, STATIC_IMAGE, viewOf } from '../../lib/render/renderMap.js';
import { Scene } from '../../lib/render/scene.js';
import { pixels, type Pixels } from '../support/goldenImage.js';

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
let image: Image;
beforeAll(async () => {
  // 200 × 100: the left half red, the right half blue.
  const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: 100, height: 100, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .png()
    .toBuffer();
  image = await loadImage(png);
});

const overlay = (corners: number[][], opacity = 1, extra: Record<string, unknown> = {}) => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [[...corners, corners[0]]] },
  properties: { overlay: true, image: { id: 'plan' }, opacity, ...extra },
});

async function draw(scene: Scene, images = new Map([['plan', image]])): Promise<{ at: (lon: number, lat: number) => number[]; image: Pixels }> {
  const png = await renderMapImage({ scene, basemap: basemapById('classic')!, markers: new Map(), overlays: images }, STATIC_IMAGE);
  const drawn = await pixels(png);
  const view = viewOf(scene.bounds, STATIC_IMAGE);
  const at = (lon: number, lat: number) => {
    const x = Math.round((worldX(lon) - view.left) * view.worldSize);
    const y = Math.round((worldY(lat) - view.top) * view.worldSize);
    const i = (y * drawn.width + x) * drawn.channels;
    return [drawn.data[i]!, drawn.data[i + 1]!, drawn.data[i + 2]!];
  };
  return { at, image: drawn };
}

const close = (actual: number[], expected: number[], tolerance = 30) => actual.every((value, i) => Math.abs(value - expected[i]!) <= tolerance);

describe('image overlays in static images', () => {
  it('lays the image into its corners: upright, the left half on the west', async () => {
    const scene = new Scene();
    scene.addFeature(overlay([[2.33, 48.84], [2.35, 48.84], [2.35, 48.85], [2.33, 48.85]]));
    expect(scene.overlays).toHaveLength(1);
    expect(scene.polygons).toHaveLength(0); // an overlay is not drawn as an area
    const { at } = await draw(scene);
    expect(close(at(2.335, 48.845), RED)).toBe(true);
    expect(close(at(2.345, 48.845), BLUE)).toBe(true);
    expect(close(at(2.345, 48.8495), BLUE)).toBe(true);
  });

  it('turns the image with its corners (a quarter turn: the left half lies on the south)', async () => {
    const scene = new Scene();
    // The image's lower-left corner at the south-east: turned a quarter counter-clockwise.
    scene.addFeature(overlay([[2.35, 48.84], [2.35, 48.85], [2.33, 48.85], [2.33, 48.84]]));
    const { at } = await draw(scene);
    expect(close(at(2.34, 48.842), RED)).toBe(true);
    expect(close(at(2.34, 48.848), BLUE)).toBe(true);
    expect(close(at(2.332, 48.842), RED)).toBe(true);
    expect(close(at(2.348, 48.848), BLUE)).toBe(true);
  });

  it('draws at its opacity, under the items, and leaves an overlay whose image is gone out', async () => {
    const scene = new Scene();
    scene.addFeature(overlay([[2.33, 48.84], [2.35, 48.84], [2.35, 48.85], [2.33, 48.85]], 0.5));
    scene.addFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [2.345, 48.845] }, properties: { color: '#00ff00' } });
    const { at } = await draw(scene);
    const half = at(2.335, 48.845);
    // Half red over the land: redder than the land, not red.
    expect(half[0]! - half[2]!).toBeGreaterThan(60);
    expect(close(half, RED)).toBe(false);
    // The pin is drawn over the overlay.
    expect(close(at(2.345, 48.845), BLUE, 60)).toBe(false);
    const { at: without } = await draw(scene, new Map());
    const land = without(2.335, 48.845);
    expect(land[0]! - land[2]!).toBeLessThan(60);
  });

  it('leaves a hidden overlay out', () => {
    const scene = new Scene();
    scene.addFeature(overlay([[2.33, 48.84], [2.35, 48.84], [2.35, 48.85], [2.33, 48.85]], 1, { visible: false }));
    expect(scene.overlays).toHaveLength(0);
    expect(scene.bounds).toBeNull();
  });
});
