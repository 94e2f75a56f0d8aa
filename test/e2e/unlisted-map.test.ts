// An unlisted map in a real browser (issue 24): a visitor who was given its link (with its link
// key) sees the interactive map with its items and, under Share, the same link and embed codes
// with the key and a word that the link is all it takes; the embed plays from its keyed address.
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

describe('an unlisted map in Chromium', () => {
  it('opens from its link with its items, shares the same link, and plays in its embed', async () => {
    const user = await service.newUser();
    const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Hidden spring' } }] };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'unlisted', title: 'Springs' }, JSON.stringify(geojson));
    const ref = `${map.id}~${/~([A-Z]{22})$/.exec(map.url)![1]}`;

    for (const width of [1280, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(String(error)));
      await page.goto(map.url);
      // The front end read the map's data at its keyed address and drew it.
      await page.locator('.map-view[data-map-drawn]').waitFor({ timeout: 20_000 });
      expect(await page.getByRole('button', { name: 'Show or hide Hidden spring' }).count()).toBe(1);
      await page.getByText('Share', { exact: true }).click();
      expect(await page.getByRole('textbox', { name: 'Link' }).inputValue()).toBe(map.url);
      expect(await page.getByRole('textbox', { name: 'Embed code (768×576)' }).inputValue()).toContain(`src="${service.url}/embed/${ref}"`);
      expect(await page.getByText('Only people who have this link or an embed code can open this map.').isVisible()).toBe(true);
      await page.locator('details.share').first().screenshot({ path: `${SHOTS}/unlisted-share-${width}.png` });
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    }

    const embed = await browser.newPage({ viewport: { width: 768, height: 576 } });
    await embed.goto(`${service.url}/embed/${ref}`);
    await embed.getByRole('button', { name: 'Play: open the interactive map Springs' }).click();
    await embed.locator('.map-view[data-map-drawn]').waitFor({ timeout: 20_000 });
    await embed.close();
  });
});
