// The static renderer (lib/render): golden images of a fixed map on each built-in basemap (small
// committed PNGs, compared with a tolerance: `UPDATE_GOLDEN=1` rewrites them after a deliberate
// change, and a failing comparison leaves `*.actual.png` beside them to look at), every kind of
// feature in its colour, the framing, hidden items, custom markers and the empty map's world.
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { basemapById } from '../../lib/basemaps.js';
import { frameView, worldX, worldY } from '../../lib/render/mercator.js';
import { renderMapImage, STATIC_IMAGE, THUMBNAIL, type ImageSize } from '../../lib/render/renderMap.js';
import { Scene } from '../../lib/render/scene.js';
import { compareWithGolden, pixels, type Pixels } from '../support/goldenImage.js';


const feature = (geometry: unknown, properties: Record<string, unknown> = {}) => ({ type: 'Feature', geometry, properties });

/** A small walk in Paris: a park, a route, cafés and a museum with titles, one hidden point. */
function parisScene(): Scene {
  const scene = new Scene();
  scene.addFeature(feature({ type: 'Polygon', coordinates: [[[2.33, 48.84], [2.34, 48.84], [2.34, 48.848], [2.33, 48.848], [2.33, 48.84]]] }, { title: 'Jardin', color: '#22aa44' }));
  scene.addFeature(feature({ type: 'LineString', coordinates: [[2.32, 48.85], [2.335, 48.856], [2.35, 48.853], [2.36, 48.86]] }, { title: 'Walk', color: '#d02090', 'stroke-width': 5 }));
  scene.addFeature(feature({ type: 'Point', coordinates: [2.3376, 48.8606] }, { title: 'Louvre', 'marker-symbol': 'museum', color: '#8040c0' }));
  scene.addFeature(feature({ type: 'Point', coordinates: [2.347, 48.851] }, { title: 'Café', 'marker-symbol': 'cafe', color: '#e07010' }));
  scene.addFeature(feature({ type: 'Point', coordinates: [2.325, 48.845] }, { title: 'Start', 'marker-symbol': '1' }));
  scene.addFeature(feature({ type: 'Point', coordinates: [2.36, 48.84] }, { title: 'Hidden', color: '#ff0000', visible: false }));
  return scene;
}

const render = (scene: Scene, basemap = 'classic', size: ImageSize = STATIC_IMAGE, markers = new Map()) =>
  renderMapImage({ scene, basemap: basemapById(basemap)!, markers }, size);


const near = (image: Pixels, i: number, [r, g, b]: readonly number[]) =>
  Math.abs(image.data[i]! - r!) + Math.abs(image.data[i + 1]! - g!) + Math.abs(image.data[i + 2]! - b!) < 30;

function count(image: Pixels, color: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < image.data.length; i += image.channels) if (near(image, i, color)) n++;
  return n;
}

/** Where the colour is, as a box of pixel positions (or null). */
function boxOf(image: Pixels, color: readonly number[]): { left: number; top: number; right: number; bottom: number } | null {
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!near(image, (y * image.width + x) * image.channels, color)) continue;
      box = box ? { left: Math.min(box.left, x), top: Math.min(box.top, y), right: Math.max(box.right, x), bottom: Math.max(box.bottom, y) } : { left: x, top: y, right: x, bottom: y };
    }
  }
  return box;
}

async function expectGolden(name: string, png: Buffer): Promise<void> {
  expect(await compareWithGolden(name, png)).toEqual({ sameSize: true, meanDifference: true, pixelsFarOff: true });
}

describe('static map renderer', () => {
  it.each(['classic', 'light', 'dark'])('matches the golden thumbnail of a walk in Paris on %s', async (basemap) => {
    await expectGolden(`paris-${basemap}`, await render(parisScene(), basemap, THUMBNAIL));
  });

  it('matches the golden image of the empty map: the world, with no band across it at the antimeridian', async () => {
    await expectGolden('world-classic', await render(new Scene(), 'classic', THUMBNAIL));
  });

  it('draws every kind of feature in its colour and leaves hidden ones out', async () => {
    const image = await pixels(await render(parisScene()));
    expect([image.width, image.height]).toEqual([1200, 630]);
    expect(count(image, [0xd0, 0x20, 0x90])).toBeGreaterThan(300); // the line
    expect(count(image, [0x22, 0xaa, 0x44])).toBeGreaterThan(300); // the polygon's outline
    expect(count(image, [0x80, 0x40, 0xc0])).toBeGreaterThan(150); // the museum's pin
    expect(count(image, [0xe0, 0x70, 0x10])).toBeGreaterThan(150); // the café's pin
    expect(count(image, [0xff, 0x00, 0x00])).toBe(0); // the hidden point
  });

  it('frames the features with padding, centred, and shows the world for an empty map', async () => {
    const scene = new Scene();
    scene.addFeature(feature({ type: 'LineString', coordinates: [[10, 40], [20, 45]] }, { color: '#ff00ff', 'stroke-width': 4 }));
    const image = await pixels(await render(scene, 'light'));
    const box = boxOf(image, [0xff, 0x00, 0xff])!;
    // The limiting side (height here: 5° of latitude against 10° of longitude at 1200×630) fills the image but for the padding.
    expect(box.top).toBeGreaterThanOrEqual(40);
    expect(box.bottom).toBeLessThanOrEqual(630 - 40);
    expect(box.top + (630 - box.bottom)).toBeLessThan(120);
    expect(Math.abs(box.left - (1200 - box.right))).toBeLessThan(6);
    const world = frameView(null, { width: 1200, height: 630, padding: 48, maxZoom: 15 });
    expect(world.zoom).toBeCloseTo(Math.log2(1200 / 256), 1);
    expect(world.left).toBeLessThan(worldX(-170));
    // One point alone is shown at the closest framing zoom, in the middle.
    const single = frameView([worldX(2.35), worldY(48.85), worldX(2.35), worldY(48.85)], { width: 1200, height: 630, padding: 48, maxZoom: 15 });
    expect(single.zoom).toBe(15);
    expect((worldX(2.35) - single.left) * single.worldSize).toBeCloseTo(600, 5);
  });

  it('draws custom markers from their images, and a pin where a marker is missing', async () => {
    const scene = new Scene();
    scene.addFeature(feature({ type: 'Point', coordinates: [0, 0] }, { marker_id: 'm1' }));
    scene.addFeature(feature({ type: 'Point', coordinates: [1, 1] }, { marker_id: 'gone', color: '#00c0c0' }));
    const canvas = createCanvas(64, 64);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ff00ff';
    ctx.fillRect(0, 0, 64, 64);
    const marker = await (await import('@napi-rs/canvas')).loadImage(await canvas.encode('png'));
    const image = await pixels(await render(scene, 'classic', STATIC_IMAGE, new Map([['m1', marker]])));
    expect(count(image, [0xff, 0x00, 0xff])).toBeGreaterThanOrEqual(30 * 30); // drawn 32 px square
    expect(count(image, [0x00, 0xc0, 0xc0])).toBeGreaterThan(150);
  });

  it('reads a feature over 1 MB without JSON.parse into the same scene as a small one', () => {
    const polygon = (cx: number, cy: number, n: number) => {
      const ring = Array.from({ length: n }, (_, i) => [cx + Math.cos((i / n) * 2 * Math.PI), cy + Math.sin((i / n) * 2 * Math.PI)]);
      return [[...ring, ring[0]], [[cx, cy], [cx + 0.1, cy], [cx + 0.1, cy + 0.1], [cx, cy]]];
    };
    const cases = [
      { type: 'MultiPolygon', coordinates: Array.from({ length: 40 }, (_, i) => polygon(i, i / 2, 800)) },
      { type: 'MultiLineString', coordinates: Array.from({ length: 30 }, (_, i) => polygon(i, 0, 1200)[0]) },
      { type: 'MultiPoint', coordinates: Array.from({ length: 100_000 }, (_, i) => [i / 3000, i / 7000]) },
    ];
    for (const geometry of cases) {
      const text = JSON.stringify({ type: 'Feature', id: 1, geometry, properties: { title: 'Big', color: '#123456', 'stroke-width': 2 } });
      expect(text.length).toBeGreaterThan(1024 * 1024);
      const [large, small] = [new Scene(), new Scene()];
      large.addFeatureText(text);
      small.addFeature(JSON.parse(text));
      expect(large.bounds, geometry.type).toEqual(small.bounds);
      expect(large.points.length).toBe(small.points.length);
      expect(large.lines.map((line) => line.parts)).toEqual(small.lines.map((line) => line.parts));
      expect(large.polygons.map((p) => [p.parts, p.color, p.width, p.title])).toEqual(small.polygons.map((p) => [p.parts, p.color, p.width, p.title]));
    }
  });

  it('ignores what it cannot draw instead of failing: unknown geometries, bad positions, unknown icons', async () => {
    const scene = new Scene();
    scene.addFeature(null);
    scene.addFeature(feature(null));
    scene.addFeature(feature({ type: 'Point', coordinates: ['a', 1] }));
    scene.addFeature(feature({ type: 'LineString', coordinates: [[0, 0]] }));
    scene.addFeature(feature({ type: 'Unknown', coordinates: [] }));
    scene.addFeature(feature({ type: 'Point', coordinates: [5, 5] }, { 'marker-symbol': '../../etc/passwd', color: 'not a colour' }));
    expect(scene.size).toBe(1);
    const image = await pixels(await render(scene));
    expect(count(image, [0x2f, 0x6f, 0xd6])).toBeGreaterThan(150); // the default colour
  });
});
