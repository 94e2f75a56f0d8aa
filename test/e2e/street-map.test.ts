// Street maps in Chromium (issue 25, item 3): with BASEMAP_TILES on the Helsinki fixture, a map of
// three places in central Helsinki opens over the archive's streets — its tiles asked for by the
// archive's identity and drawn: roads, buildings, water and names in each palette's colours, the
// OpenStreetMap credit beside Natural Earth's — and axe-core finds nothing; and central Helsinki
// opened at zooms 5, 12, 15 and 17 in each style through the address's view (#map=zoom/lat/lon).
// Screenshots in test/e2e/screenshots/street-map-*.png (look at them).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { STREET_PALETTES } from '../../lib/streetStyle/palettes.js';
import { startTestService, type TestService } from '../integration/harness.js';
import { streetFixture } from '../support/streetArchives.js';
import { accessibilityViolations } from './accessibility.js';
import { launchChromium, ownAddress, pixelsNear, SHOTS } from './chromium.js';

let service: TestService;
let browser: Browser;
beforeAll(async () => {
  const { basemapTiles } = loadConfig({ BASEMAP_TILES: streetFixture() });
  service = await startTestService({ renderWorker: false, config: { basemapTiles } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Tile zooms asked of the archive by a page: listens from now on. */
function archiveTiles(page: import('playwright-core').Page): { z: number; status: number }[] {
  const tiles: { z: number; status: number }[] = [];
  page.on('response', (response) => {
    const match = /\/basemaps\/osm\/[0-9a-f]{16}\/(\d+)\/\d+\/\d+\.mvt$/.exec(response.url());
    if (match) tiles.push({ z: Number(match[1]), status: response.status() });
  });
  return tiles;
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const place = (lon: number, lat: number, title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { title } });

describe('a map over the street map archive', () => {
  it.each(['classic', 'dark'] as const)('draws the streets in the %s palette, credits OpenStreetMap, and passes axe', async (basemap) => {
    const user = await service.newUser();
    const geojson = { type: 'FeatureCollection', features: [place(24.9414, 60.1699, 'Station'), place(24.9445, 60.1675, 'Esplanadi'), place(24.9385, 60.1718, 'Kamppi')] };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Helsinki walk' }, JSON.stringify(geojson));
    expect(map.error).toBeUndefined();
    expect((await service.call('map/update', user.key, { map_id: map.id, basemap })).error).toBeUndefined();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await ownAddress(page);
    const tiles: number[] = [];
    page.on('response', (response) => {
      if (/\/basemaps\/osm\/[0-9a-f]{16}\/\d+\/\d+\/\d+\.mvt$/.test(response.url())) tiles.push(response.status());
    });
    await page.goto(`${service.url}${new URL(map.url as string).pathname}`);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 60_000 });
    await expect.poll(() => tiles.filter((status) => status === 200).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const canvas = (await page.locator('.maplibregl-canvas').boundingBox())!;
    const palette = STREET_PALETTES[basemap];
    // The archive's buildings and streets fill much of the view at this zoom.
    await expect.poll(() => pixelsNear(page, canvas, rgb(palette.building), 12), { timeout: 30_000 }).toBeGreaterThan(5_000);
    expect(await pixelsNear(page, canvas, rgb(palette.minor), 8)).toBeGreaterThan(1_000);
    expect(await page.locator('.maplibregl-ctrl-attrib').textContent()).toMatch(/Natural Earth.*© OpenStreetMap contributors/);
    expect(await page.locator('.maplibregl-ctrl-attrib a[href="https://www.openstreetmap.org/copyright"]').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/street-map-${basemap}-1280.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  it.each(['classic', 'light', 'dark'] as const)('opens Helsinki at zooms 5, 12, 15 and 17 from the address in the %s style', async (basemap) => {
    const user = await service.newUser();
    const geojson = { type: 'FeatureCollection', features: [place(24.9414, 60.1699, 'Station')] };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Helsinki' }, JSON.stringify(geojson));
    expect((await service.call('map/update', user.key, { map_id: map.id, basemap })).error).toBeUndefined();
    const palette = STREET_PALETTES[basemap];
    for (const zoom of [5, 12, 15, 17]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await ownAddress(page);
      const tiles = archiveTiles(page);
      await page.goto(`${service.url}${new URL(map.url as string).pathname}#map=${zoom}/60.1680/24.9420`);
      await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 60_000 });
      // The archive's tiles of that zoom (over-zoomed past its 14), none of another.
      await expect.poll(() => tiles.filter((tile) => tile.status === 200).length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(new Set(tiles.map((tile) => tile.z))).toEqual(new Set([Math.min(zoom, 14)]));
      const canvas = (await page.locator('.maplibregl-canvas').boundingBox())!;
      if (zoom >= 15) await expect.poll(() => pixelsNear(page, canvas, rgb(palette.building), 12), { timeout: 30_000 }).toBeGreaterThan(20_000);
      else await expect.poll(() => pixelsNear(page, canvas, rgb(palette.water), 12), { timeout: 30_000 }).toBeGreaterThan(zoom === 5 ? 100_000 : 20_000);
      await page.screenshot({ path: `${SHOTS}/street-map-${basemap}-z${zoom}.png` });
      await page.close();
    }
  });
});
