// A map's OGC API – Features pages in a real browser (issue 28): someone who opens the service's
// address follows its links from the landing page to the collections, a page of features, the
// next page and one feature — each page passing axe-core, at a desktop and a phone width.
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

describe("a map's OGC API pages in Chromium", () => {
  it('leads from the landing page to a feature by links, every page accessible', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Springs' }],
      features: Array.from({ length: 150 }, (_, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [2 + i / 100, 48] }, properties: { title: `Spring ${i}`, group: 1, depth: i } })),
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Water' }, JSON.stringify(geojson));
    for (const width of [1280, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(String(error)));
      const check = async (heading: string) => {
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
        expect(await accessibilityViolations(page)).toEqual([]);
      };
      await page.goto(`${map.url}/ogc`);
      await check('Water: OGC API – Features');
      await page.getByRole('link', { name: 'Conformance classes' }).first().click();
      await check('Conformance classes');
      await page.goBack();
      await page.getByRole('link', { name: 'The collections as HTML' }).click();
      await check('Collections');
      await page.getByRole('link', { name: 'Springs' }).click();
      await check('Springs');
      await page.getByRole('link', { name: 'The features of Springs as HTML' }).click();
      await check('Springs: features');
      expect(await page.getByRole('table').getByRole('row').count()).toBe(101);
      await page.getByRole('link', { name: 'The next page as HTML' }).click();
      await check('Springs: features');
      expect(await page.getByRole('table').getByRole('row').count()).toBe(51);
      await page.getByRole('link', { name: /^\d+$/ }).first().click();
      await check('Spring 100');
      expect(await page.getByRole('row', { name: 'depth 100' }).count()).toBe(1);
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
