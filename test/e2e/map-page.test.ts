// The map page in a real browser (Debian's Chromium through playwright-core; .ci/run installs it):
// log in, open a map with groups, see the interactive map over the built-in basemap, hide a
// group with its eye toggle, filter the list, open a popup from the list (title, Markdown
// description, YouTube player) — and no request leaves the machine.
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { ownAddress, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

describe('the map page in Chromium', () => {
  it('shows the interactive map, toggles and filters items, and opens popups, with no request leaving the machine', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Food' }, { id: 2, title: 'Walks' }],
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [2.347, 48.851] },
          properties: { title: 'Café de Flore', description: 'Coffee on **Saint-Germain**<script>alert(1)</script>', media_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'marker-symbol': 'cafe', color: '#b03a2e', group: 1 },
        },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.352, 48.857] }, properties: { title: 'Bistro', group: 1 } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[2.32, 48.85], [2.36, 48.86]] }, properties: { title: 'Evening walk', group: 2 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.33, 48.84] }, properties: { title: 'Secret spot', visible: false } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'private', title: 'Paris' }, JSON.stringify(geojson));
    const path = new URL(map.url as string).pathname;

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const offsite: string[] = [];
    const problems: string[] = [];
    const asked = new Map<string, number>();
    page.on('request', (request) => {
      if (!request.url().startsWith(service.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) offsite.push(request.url());
      const name = /(map\.geojson|style\.json|maplibre-gl\.mjs)$/.exec(new URL(request.url()).pathname)?.[1];
      if (name) asked.set(name, (asked.get(name) ?? 0) + 1);
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    // The YouTube player's address is only named (the frame is blocked from loading here).
    await page.route(/youtube-nocookie\.com/, (route) => route.fulfill({ status: 204, body: '' }));
    await ownAddress(page);
    await page.goto(`${service.url}/login?next=${encodeURIComponent(path)}`);
    await page.getByLabel('Username or e-mail address').fill(user.username);
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${service.url}${path}`);
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
    await page.screenshot({ path: `${SHOTS}/map-page.png` });
    // The head's preloads are what the front end and MapLibre use: each asked for once, not twice.
    await page.locator('figure.map-view[data-map-drawn]').waitFor({ timeout: 30_000 });
    expect(Object.fromEntries(asked)).toEqual({ 'maplibre-gl.mjs': 1, 'map.geojson': 1, 'style.json': 1 });

    // The hidden item starts hidden; a group's eye hides its items.
    await expect.poll(() => page.getByRole('button', { name: 'Show or hide Secret spot' }).getAttribute('aria-pressed')).toBe('false');
    const walks = page.getByRole('button', { name: 'Show or hide the group Walks' });
    await walks.click();
    expect(await walks.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByRole('button', { name: 'Show or hide Evening walk' }).getAttribute('aria-pressed')).toBe('false');

    // Each entry of the list as the map draws its item: its colour, its icon (issue 26, defect 3).
    const cafe = page.locator('li.item[data-title="Café de Flore"] svg.kind');
    expect([await cafe.locator('circle').getAttribute('fill'), await cafe.locator('image').getAttribute('href')]).toEqual(['#b03a2e', '/assets/maki/cafe.svg']);
    expect(await page.locator('li.item[data-title="Bistro"] svg.kind circle').getAttribute('fill')).toBe('#2f6fd6');
    expect(await page.locator('li.item[data-title="Evening walk"] svg.kind rect').count()).toBe(1);

    // The filter narrows the list.
    await page.getByLabel('Filter items').fill('bis');
    expect(await page.getByRole('button', { name: 'Bistro', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Café de Flore', exact: true }).isVisible()).toBe(false);
    await page.getByLabel('Filter items').fill('');

    // A popup from the list: title, Markdown (sanitised), the video player.
    await page.getByRole('button', { name: 'Café de Flore', exact: true }).click();
    const popup = page.locator('.maplibregl-popup');
    await expect.poll(() => popup.count()).toBe(1);
    expect(await popup.locator('h3').textContent()).toBe('Café de Flore');
    expect(await popup.locator('.description strong').textContent()).toBe('Saint-Germain');
    expect(await popup.locator('script').count()).toBe(0);
    expect(await popup.locator('iframe').getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await page.screenshot({ path: `${SHOTS}/map-popup.png` });
    // Escape closes it (focus is in it once it opens) and gives the keyboard back to the map.
    await popup.locator('h3').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => popup.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('maplibregl-canvas'))).toBe(true);

    expect(problems).toEqual([]);
    expect(offsite.filter((url) => !url.includes('youtube-nocookie.com'))).toEqual([]);
    await page.close();
  });

  it('embeds a map: its picture with a Play button first, the interactive map after Play', async () => {
    const user = await service.newUser();
    const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Here' } }] };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Embedded' }, JSON.stringify(geojson));
    const page = await browser.newPage({ viewport: { width: 768, height: 576 } });
    await page.goto(`${service.url}/embed/${map.id}`);
    expect(await page.locator('.maplibregl-canvas').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/embed-before-play.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Play: open the interactive map Embedded' }).click();
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
    await page.waitForTimeout(2_000); // tiles and the items arrive after the canvas (the screenshot is to look at)
    await page.screenshot({ path: `${SHOTS}/embed-after-play.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.close();
  });
});
