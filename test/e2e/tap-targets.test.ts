// Tap targets on a phone (issue 26, defect 7; WCAG 2.2, 2.5.8): at 375 pixels wide, the map page's
// and the editor's small controls — the list's eye toggles and a group's Edit, the Download links,
// Map settings, an item's Visible checkbox, the settings form's checkboxes and radios — are at
// least 24×24 CSS pixels.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { logIn, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;
beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

/** Every visible element of the selector smaller than 24×24: described, for the failure message. */
async function tooSmall(page: Page, selector: string): Promise<string[]> {
  const found = await page.locator(selector).evaluateAll((nodes) =>
    nodes
      .map((node) => ({ node, box: node.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      .map(({ node, box }) => ({ what: `${node.tagName.toLowerCase()} "${(node.getAttribute('aria-label') ?? node.textContent ?? '').trim().slice(0, 40)}"`, width: box.width, height: box.height })),
  );
  expect(found.length, selector).toBeGreaterThan(0);
  return found.filter(({ width, height }) => width < 23.5 || height < 23.5).map(({ what, width, height }) => `${what}: ${Math.round(width)}×${Math.round(height)}`);
}

describe('tap targets at 375 pixels', () => {
  it('are at least 24×24 on the map page, in the editor and in the map settings', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 'g1', title: 'Food' }],
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Bistro', group: 'g1' } }],
    };
    const made = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'private', title: 'Small screens' }, JSON.stringify(geojson));
    const path = new URL(made.url as string).pathname;
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await logIn(page, service.url, user.username);
    await page.goto(`${service.url}${path}?edit=1`);
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('.group-edit').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.locator('details.share summary', { hasText: 'Download' }).click();
    expect(await tooSmall(page, '.item-list .eye')).toEqual([]);
    expect(await tooSmall(page, '.item-list .group-edit')).toEqual([]);
    expect(await tooSmall(page, '.downloads a')).toEqual([]);
    expect(await tooSmall(page, '.meta a')).toEqual([]);
    // An item's panel: its Visible checkbox.
    await page.getByRole('button', { name: 'Bistro', exact: true }).click();
    await expect.poll(() => page.locator('#item-visible').count()).toBe(1);
    expect(await tooSmall(page, '#item-visible')).toEqual([]);
    // The map settings form: its checkboxes and radios.
    await page.goto(`${service.url}${path}?settings=1`);
    expect(await tooSmall(page, '#map-settings input[type="radio"], #map-settings input[type="checkbox"]')).toEqual([]);
    await page.close();
  });
});
