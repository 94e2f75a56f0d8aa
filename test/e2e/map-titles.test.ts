// Items' titles on the interactive map (issue 26, defect 3): beside points, along lines, inside
// areas, where they fit, as the static image has them — in dark text with a white halo. The same
// map without titles is drawn the same but for that text. (web/app/titleLayers.ts)
import { type Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { ownAddress, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

const point = (lon: number, lat: number, title?: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: title ? { title } : {} });

function document(titled: boolean) {
  const t = (title: string) => (titled ? title : undefined);
  return {
    type: 'FeatureCollection',
    features: [
      point(24.93, 60.17, t('Old Market Hall')),
      point(24.95, 60.165, t('Ferry to the island')),
      point(24.96, 60.175, t('Cathedral steps')),
      { type: 'Feature', geometry: { type: 'LineString', coordinates: [[24.92, 60.16], [24.94, 60.158], [24.965, 60.162]] }, properties: titled ? { title: 'Harbour walk' } : {} },
      { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[24.925, 60.176], [24.94, 60.176], [24.94, 60.181], [24.925, 60.181], [24.925, 60.176]]] }, properties: titled ? { title: 'Park' } : {} },
    ],
  };
}

/** Pixels that differ between two pictures of the same size (by more than anti-aliasing noise). */
async function differentPixels(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((png) => sharp(png).raw().toBuffer({ resolveWithObject: true })));
  expect([x!.info.width, x!.info.height]).toEqual([y!.info.width, y!.info.height]);
  let different = 0;
  for (let i = 0; i < x!.data.length; i += x!.info.channels) {
    if (Math.abs(x!.data[i]! - y!.data[i]!) + Math.abs(x!.data[i + 1]! - y!.data[i + 1]!) + Math.abs(x!.data[i + 2]! - y!.data[i + 2]!) > 60) different++;
  }
  return different;
}

describe('titles on the interactive map', () => {
  it('are drawn beside points, along lines and in areas where they fit, and only where items have titles', async () => {
    const user = await service.newUser();
    const shots: Buffer[] = [];
    for (const titled of [true, false]) {
      const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: titled ? 'Titled' : 'Untitled' }, JSON.stringify(document(titled)));
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await ownAddress(page);
      await page.goto(map.url as string);
      await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
      // The items arrive after the canvas; the text after them.
      await page.waitForTimeout(3_000);
      const png = await page.locator('.maplibregl-canvas').screenshot({ path: `${SHOTS}/map-titles-${titled ? 'on' : 'off'}.png` });
      shots.push(png);
      if (titled) {
        expect(await accessibilityViolations(page)).toEqual([]);
        // On a phone too: the titles fit or step aside, and axe finds nothing.
        await page.setViewportSize({ width: 375, height: 800 });
        await page.waitForTimeout(1_500);
        await page.screenshot({ path: `${SHOTS}/map-titles-375.png` });
        expect(await accessibilityViolations(page)).toEqual([]);
      }
      await page.close();
    }
    // The same items in the same view: what differs is the titles' text and halos (five titles
    // of 4–19 letters at 12 px: thousands of pixels).
    const different = await differentPixels(shots[0]!, shots[1]!);
    console.log(`pixels that differ with titles: ${different}`);
    expect(different).toBeGreaterThan(1_500);
  });
});
