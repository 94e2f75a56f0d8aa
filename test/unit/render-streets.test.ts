// Static images with the street map (lib/render/streetMap.ts): the Helsinki fixture archive's
// tiles drawn under a map's features in each built-in palette (golden images, compared with a
// tolerance: `UPDATE_GOLDEN=1` rewrites them after a deliberate change, and a failing comparison
// leaves `*.actual.png` beside them), with its streets, buildings, water and names, and the
// OpenStreetMap credit; a place the archive does not cover is drawn on Natural Earth alone, as
// without an archive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basemapById } from '../../lib/basemaps.js';
import { renderMapImage, STATIC_IMAGE, THUMBNAIL, viewOf, type ImageSize } from '../../lib/render/renderMap.js';
import { Scene } from '../../lib/render/scene.js';
import { createCanvas } from '@napi-rs/canvas';
import { LabelSpace } from '../../lib/render/labelSpace.js';
import { worldX, worldY, type View } from '../../lib/render/mercator.js';
import { decodeStreetTiles, drawStreetLabels, streetTilesOf, type StreetTileBytes } from '../../lib/render/streetMap.js';
import { STREET_PALETTES } from '../../lib/streetStyle/palettes.js';
import { openStreetArchive, type StreetArchive } from '../../lib/streetArchive/index.js';
import { compareWithGolden, pixels, type Pixels } from '../support/goldenImage.js';
import { streetFixture } from '../support/streetArchives.js';

let archive: StreetArchive;
beforeAll(async () => {
  archive = await openStreetArchive({ kind: 'file', path: streetFixture() }, 16 * 1024 * 1024);
}, 180_000);
afterAll(() => archive?.close());

/** Cafés around Helsinki's central station: a street-level view. */
function cafes(lon = 24.945, lat = 60.17): Scene {
  const scene = new Scene();
  for (let i = 0; i < 6; i++) {
    scene.addFeature({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon + (i % 3) * 0.004, lat + Math.floor(i / 3) * 0.002] }, properties: { title: `Café ${i + 1}` } });
  }
  return scene;
}

/** The tiles the image's view needs, read as the render activity reads them. */
async function tilesFor(scene: Scene, size: ImageSize): Promise<StreetTileBytes[]> {
  const tiles: StreetTileBytes[] = [];
  for (const address of streetTilesOf(viewOf(scene.bounds, size), archive.info)) {
    const bytes = await archive.decodedTile(address.z, address.x, address.y);
    if (bytes) tiles.push({ ...address, bytes });
  }
  return tiles;
}

const render = async (scene: Scene, basemap: string, size: ImageSize, withStreets = true) =>
  renderMapImage({ scene, basemap: basemapById(basemap)!, markers: new Map(), ...(withStreets ? { streets: await tilesFor(scene, size) } : {}) }, size);

const hex = (colour: string) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));

/** Pixels of exactly this colour (the inside of a fill or a wide line, not its anti-aliased edge). */
function count(image: Pixels, colour: string): number {
  const [r, g, b] = hex(colour);
  let n = 0;
  for (let i = 0; i < image.data.length; i += image.channels) if (Math.abs(image.data[i]! - r!) + Math.abs(image.data[i + 1]! - g!) + Math.abs(image.data[i + 2]! - b!) < 6) n++;
  return n;
}

describe('a static image over the street map', () => {
  for (const [palette, size] of [['classic', STATIC_IMAGE], ['light', STATIC_IMAGE], ['dark', STATIC_IMAGE], ['classic', THUMBNAIL]] as const) {
    it(`draws Helsinki's streets, buildings and names in ${palette} (${size.width} × ${size.height})`, async () => {
      const png = await render(cafes(), palette, size);
      expect(await compareWithGolden(`streets-${palette}-${size.width}`, png)).toEqual({ sameSize: true, meanDifference: true, pixelsFarOff: true });
      const image = await pixels(png);
      const colours = STREET_PALETTES[palette];
      const area = image.width * image.height;
      // Buildings cover much of a city centre; roads are drawn in their colours.
      expect(count(image, colours.building) / area).toBeGreaterThan(0.05);
      expect(count(image, colours.secondary) + count(image, colours.primary) + count(image, colours.minor)).toBeGreaterThan(area * 0.01);
      // Without the street map the same view is Natural Earth's land alone: no building colour.
      const without = await pixels(await render(cafes(), palette, size, false));
      expect(count(without, colours.building)).toBeLessThan(area * 0.001);
    });
  }

  it("draws points of interest as their Maki icons in the palette's colour at street zoom", async () => {
    // MapLibre zoom 17 over the station (the framing of a map image stops at 14: drawn directly).
    const zoom = 18;
    const worldSize = 256 * 2 ** zoom;
    const view: View = { width: 800, height: 600, worldSize, zoom, left: worldX(24.9414) - 400 / worldSize, top: worldY(60.1712) - 300 / worldSize };
    const tiles: StreetTileBytes[] = [];
    for (const address of streetTilesOf(view, archive.info)) {
      const bytes = await archive.decodedTile(address.z, address.x, address.y);
      if (bytes) tiles.push({ ...address, bytes });
    }
    const canvas = createCanvas(view.width, view.height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, view.width, view.height);
    await drawStreetLabels(ctx, view, decodeStreetTiles(tiles, view), STREET_PALETTES.classic, new LabelSpace(view.width, view.height), 1);
    const image = await pixels(await canvas.encode('png'));
    // The view's few landmarks as 15-px icons: about 540 pixels of the colour (as 3-px dots: 56).
    expect(count(image, STREET_PALETTES.classic.poiDot)).toBeGreaterThan(300);
  });

  it('is drawn on Natural Earth alone where the archive has no tiles, credited to Natural Earth only', async () => {
    const lisbon = cafes(-9.14, 38.71);
    expect(await tilesFor(lisbon, STATIC_IMAGE)).toEqual([]);
    const withArchive = await render(lisbon, 'classic', STATIC_IMAGE);
    const without = await render(lisbon, 'classic', STATIC_IMAGE, false);
    expect(Buffer.compare(withArchive, without)).toBe(0);
  });
});
