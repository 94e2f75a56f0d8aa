// Text labels in the static image (lib/render/textLabels.ts): a golden image of labels in Lyon,
// each label's text in its colour at its point with a halo, long text wrapped, labels in the
// thumbnail too, hidden and empty labels drawn as nothing, and the scene keeping labels apart
// from the points (no pin under a label).
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { basemapById } from '../../lib/basemaps.js';
import { registerFonts, font } from '../../lib/render/fonts.js';
import { frameView, worldX, worldY } from '../../lib/render/mercator.js';
import { renderMapImage, THUMBNAIL, type ImageSize } from '../../lib/render/renderMap.js';
import { Scene } from '../../lib/render/scene.js';
import { wrapText } from '../../lib/render/textLabels.js';
import { compareWithGolden, pixels, type Pixels } from '../support/goldenImage.js';

const SIZE: ImageSize = { width: 640, height: 400, scale: 1, labels: true };
const feature = (coordinates: [number, number], properties: Record<string, unknown>) => ({ type: 'Feature', geometry: { type: 'Point', coordinates }, properties });
const label = (coordinates: [number, number], title: string, properties: Record<string, unknown> = {}) => feature(coordinates, { text_label: true, title, ...properties });

const OLD_TOWN: [number, number] = [4.827, 45.762];
const PENINSULA: [number, number] = [4.834, 45.752];
const LONG: [number, number] = [4.845, 45.768];

function lyonScene(): Scene {
  const scene = new Scene();
  scene.addFeature({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[4.84, 45.75], [4.85, 45.75], [4.85, 45.757], [4.84, 45.757], [4.84, 45.75]]] }, properties: { title: 'Parc', color: '#22aa44' } });
  scene.addFeature(feature([4.832, 45.767], { title: 'Musée', 'marker-symbol': 'museum', color: '#8040c0' }));
  scene.addFeature(label(OLD_TOWN, 'Vieux Lyon', { text_size: 24 }));
  scene.addFeature(label(PENINSULA, 'Presqu’île', { color: '#b03a2e' }));
  scene.addFeature(label(LONG, 'A long label that wraps onto a second line', { color: '#7570b3', text_size: 14 }));
  scene.addFeature(label([4.82, 45.75], 'Secret', { color: '#ff00ff', visible: false }));
  scene.addFeature(label([4.823, 45.755], '   ', { color: '#00ff00' }));
  return scene;
}

const render = (scene: Scene, size: ImageSize = SIZE, basemap = 'classic') => renderMapImage({ scene, basemap: basemapById(basemap)!, markers: new Map() }, size);

const near = (image: Pixels, i: number, [r, g, b]: readonly number[], tolerance = 30) =>
  Math.abs(image.data[i]! - r!) + Math.abs(image.data[i + 1]! - g!) + Math.abs(image.data[i + 2]! - b!) < tolerance;

/** Pixels of the colour inside a box around (x, y). */
function countAround(image: Pixels, [x, y]: readonly [number, number], halfWidth: number, halfHeight: number, color: readonly number[], tolerance = 30): number {
  let n = 0;
  for (let py = Math.max(0, Math.round(y - halfHeight)); py < Math.min(image.height, y + halfHeight); py++) {
    for (let px = Math.max(0, Math.round(x - halfWidth)); px < Math.min(image.width, x + halfWidth); px++) if (near(image, (py * image.width + px) * image.channels, color, tolerance)) n++;
  }
  return n;
}

function rowsWith(image: Pixels, color: readonly number[]): number[] {
  const rows: number[] = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (near(image, (y * image.width + x) * image.channels, color)) {
        rows.push(y);
        break;
      }
    }
  }
  return rows;
}

const count = (image: Pixels, color: readonly number[], tolerance = 30) => {
  let n = 0;
  for (let i = 0; i < image.data.length; i += image.channels) if (near(image, i, color, tolerance)) n++;
  return n;
};

describe('text labels in the static image', () => {
  it('matches the golden image of labels in Lyon', async () => {
    expect(await compareWithGolden('text-labels-classic', await render(lyonScene()))).toEqual({ sameSize: true, meanDifference: true, pixelsFarOff: true });
  });

  it('draws each label’s text in its colour at its point, with a halo, long text on two lines', async () => {
    const scene = lyonScene();
    const image = await pixels(await render(scene));
    const view = frameView(scene.bounds, { width: SIZE.width, height: SIZE.height, padding: 48, maxZoom: 15 });
    const at = ([lon, lat]: [number, number]) => [(worldX(lon) - view.left) * view.worldSize, (worldY(lat) - view.top) * view.worldSize] as const;
    // The default dark text, 24 px, centred on its point; a white halo around it.
    expect(countAround(image, at(OLD_TOWN), 70, 16, [0x1d, 0x23, 0x2a])).toBeGreaterThan(150);
    expect(countAround(image, at(OLD_TOWN), 75, 20, [0xff, 0xff, 0xff], 12)).toBeGreaterThan(300);
    expect(countAround(image, at(PENINSULA), 50, 12, [0xb0, 0x3a, 0x2e])).toBeGreaterThan(100);
    // Nothing of it far from its point (a label is not beside a pin, as a title is).
    expect(count(image, [0xb0, 0x3a, 0x2e]) - countAround(image, at(PENINSULA), 60, 14, [0xb0, 0x3a, 0x2e])).toBeLessThan(5);
    // Wrapped at 12 ems: two lines of 14 px text, 17 px apart.
    const rows = rowsWith(image, [0x75, 0x70, 0xb3]);
    expect(rows.at(-1)! - rows[0]!).toBeGreaterThan(22);
    expect(rows.at(-1)! - rows[0]!).toBeLessThan(40);
    // The hidden label and the one with no text: nothing.
    expect(count(image, [0xff, 0x00, 0xff])).toBe(0);
    expect(count(image, [0x00, 0xff, 0x00])).toBe(0);
  });

  it('keeps labels apart from the points: no pin, and in the thumbnail too', async () => {
    const scene = lyonScene();
    expect(scene.points).toHaveLength(1);
    expect(scene.texts.map((text) => [text.text, text.color, text.size])).toEqual([
      ['Vieux Lyon', '#1d232a', 24],
      ['Presqu’île', '#b03a2e', 16],
      ['A long label that wraps onto a second line', '#7570b3', 14],
    ]);
    // A label with no text still counts in the framing; text_size as a table gives it back (text), clamped.
    const table = new Scene();
    table.addFeature(label([1, 1], 'From a table', { text_label: 'true', text_size: '99' }));
    table.addFeature(label([2, 2], ''));
    expect(table.texts.map((text) => text.size)).toEqual([48]);
    expect(table.bounds).toEqual([worldX(1), worldY(2), worldX(2), worldY(1)]);
    const thumbnail = await pixels(await render(lyonScene(), THUMBNAIL));
    expect(count(thumbnail, [0xb0, 0x3a, 0x2e], 60)).toBeGreaterThan(15);
  });

  it('wraps text at whole words, a word longer than the width staying whole', () => {
    registerFonts();
    const ctx = createCanvas(10, 10).getContext('2d');
    ctx.font = font(16);
    const width = ctx.measureText('Bonjour tout').width + 1;
    expect(wrapText(ctx, 'Bonjour tout le monde', width)).toEqual(['Bonjour tout', 'le monde']);
    expect(wrapText(ctx, '  Anticonstitutionnellement  court ', 20)).toEqual(['Anticonstitutionnellement', 'court']);
    expect(wrapText(ctx, '', 100)).toEqual([]);
  });
});
