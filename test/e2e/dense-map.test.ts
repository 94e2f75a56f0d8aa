// A map whose points crowd, in Chromium: where more than 2,000 points would share a map tile they
// are drawn as dots in raster tiles (web/app/densePoints.ts) instead of circles with icons. The
// page still says when the map is drawn (`data-map-drawn`), and a click on a dot opens its popup.
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

describe('a map of crowded points in Chromium', () => {
  it('draws 2,500 points a few metres apart as dots, says when it is drawn, and opens a dot’s popup', async () => {
    const user = await service.newUser();
    // A 50 × 50 grid two metres apart around the middle of a zoom-15 map tile (the map opens at
    // 15): that tile holds them all, too many for circles.
    const tiles = 2 ** 15;
    const lon = ((Math.floor(((2.35 + 180) / 360) * tiles) + 0.5) / tiles) * 360 - 180;
    const mercatorY = (latitude: number) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (latitude * Math.PI) / 360)) / (2 * Math.PI);
    const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * ((Math.floor(mercatorY(48.85) * tiles) + 0.5) / tiles)))) * 180) / Math.PI;
    const features = Array.from({ length: 2_500 }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lon + ((i % 50) - 25) * 0.00002, lat + (Math.floor(i / 50) - 25) * 0.00002] },
      properties: { title: `Place ${i + 1}`, 'marker-symbol': 'cafe', ...(i % 3 === 0 ? { color: '#e7298a' } : {}) },
    }));
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Crowded' }, JSON.stringify({ type: 'FeatureCollection', features }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(`${service.url}${new URL(map.url as string).pathname}`);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
    await page.screenshot({ path: `${SHOTS}/dense-map.png` });

    const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const popup = page.locator('.maplibregl-popup');
    await expect.poll(() => popup.count()).toBe(1);
    expect(await popup.locator('h3').textContent()).toMatch(/^Place \d+$/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
