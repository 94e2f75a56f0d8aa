// Image overlays on the map page in Chromium (issue 27, item 2): an uploaded image placed by its
// corners is drawn under the items at its opacity, a click on it opens the item, its toggle hides it.
import { type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { ownAddress, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

const MAGENTA = [255, 0, 255];
const GREEN = [0, 255, 0];
const LAND = [0xf2, 0xef, 0xe9];
/** Green at half opacity over the classic basemap's land. */
const HALF_GREEN = GREEN.map((value, i) => Math.round((value + LAND[i]!) / 2));

/** Pixels of the map's canvas near a colour (the page as drawn now). */
async function mapPixelsNear(page: Page, [r, g, b]: readonly number[], tolerance = 30): Promise<number> {
  const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
  const { data, info } = await sharp(await page.screenshot({ clip: box })).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < tolerance) count++;
  return count;
}

const square = (west: number, south: number, size: number) => [
  [west, south],
  [west + size, south],
  [west + size, south + size],
  [west, south + size],
  [west, south],
];

describe('image overlays on the map page', () => {
  it('draws each overlay image in its corners at its opacity, opens it on a click, and hides it with its toggle', async () => {
    const user = await service.newUser();
    const png = (color: string) => sharp({ create: { width: 64, height: 64, channels: 3, background: color } }).png().toBuffer();
    const magenta = (await service.send('image/upload', user.key, { file_type: 'png' }, await png('#ff00ff'))).image_id as string;
    const green = (await service.send('image/upload', user.key, { file_type: 'png' }, await png('#00ff00'))).image_id as string;
    // Inland Germany: the classic basemap's land all around.
    const geojson = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [square(9.0, 50.0, 0.5)] }, properties: { title: 'Old survey', overlay: true, image: { id: magenta }, opacity: 1 } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [square(10.0, 50.0, 0.5)] }, properties: { title: 'Faint plan', overlay: true, image: { id: green }, opacity: 0.5 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [9.5, 49.7] }, properties: { title: 'Pin' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Overlays' }, JSON.stringify(geojson));
    expect(map.error).toBeUndefined();
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await ownAddress(page);
    await page.goto(map.url as string);
    await page.locator('figure.map-view[data-map-drawn]').waitFor({ timeout: 30_000 });
    // Each overlay covers a square of roughly 100 × 150 pixels here; polled while the images arrive.
    await expect.poll(() => mapPixelsNear(page, MAGENTA), { timeout: 20_000, interval: 250 }).toBeGreaterThan(3_000);
    await expect.poll(() => mapPixelsNear(page, HALF_GREEN, 24), { timeout: 20_000, interval: 250 }).toBeGreaterThan(3_000);
    expect(await mapPixelsNear(page, GREEN)).toBe(0); // at half opacity, never the image's own green
    await page.screenshot({ path: `${SHOTS}/overlays.png` });
    // The list shows each overlay by its image.
    expect(await page.locator(`svg.kind-area image[href="/images/${magenta}/s256"]`).count()).toBe(1);

    // A click on the image opens the overlay item's popup.
    const canvas = (await page.locator('.maplibregl-canvas').boundingBox())!;
    const { data, info } = await sharp(await page.screenshot({ clip: canvas })).raw().toBuffer({ resolveWithObject: true });
    let at: [number, number] | undefined;
    for (let i = 0; i < data.length && !at; i += info.channels) {
      if (Math.abs(data[i]! - 255) + data[i + 1]! + Math.abs(data[i + 2]! - 255) < 30) {
        const pixel = i / info.channels;
        at = [(pixel % info.width) + 20, Math.floor(pixel / info.width) + 20];
      }
    }
    expect(at).toBeDefined();
    await page.mouse.click(canvas.x + at![0], canvas.y + at![1]);
    await expect.poll(() => page.locator('.maplibregl-popup').textContent(), { timeout: 10_000, interval: 100 }).toContain('Old survey');
    expect(await accessibilityViolations(page)).toEqual([]);
    // Hidden with its eye toggle, the image goes; shown again, it comes back.
    await page.keyboard.press('Escape');
    const toggle = page.getByRole('button', { name: 'Show or hide Old survey' });
    await toggle.click();
    await expect.poll(() => mapPixelsNear(page, MAGENTA), { timeout: 10_000, interval: 250 }).toBe(0);
    await toggle.click();
    await expect.poll(() => mapPixelsNear(page, MAGENTA), { timeout: 10_000, interval: 250 }).toBeGreaterThan(3_000);
    expect(problems).toEqual([]);
    await page.close();
  });
});
