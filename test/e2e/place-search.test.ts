// Find a place in Chromium, with the keyboard only: on a visitor's map page, type a few letters,
// go through the suggestions with the arrows (the combobox's active option, the count told in its
// status region), Enter → the map flies there and marks it (its ring drawn at the map's middle);
// Escape closes, then clears. In the editor: the same, then Tab to Add, Enter → a point titled
// with the place, one undoable edit, saved and read back through map/get. axe-core with the
// suggestions open; screenshots at 1280 and 375 pixels in test/e2e/screenshots/place-search-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, ownAddress, pixelsNear, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

/** The ring that marks a place found (web/app/mapAdapter.ts FOUND_PLACE_COLOR, #c8175d). */
const RING = [200, 23, 93];

/** A map of one point in Paris, far from the places searched for. */
async function newMap(key: string, visibility: 'public' | 'private'): Promise<{ id: number; path: string }> {
  const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Café' } }] };
  const map = await service.send('map/upload', key, { file_type: 'geojson', visibility, title: 'Travels' }, JSON.stringify(geojson));
  expect(map.error).toBeUndefined();
  return { id: map.id as number, path: new URL(map.url as string).pathname };
}

async function opened(page: Page, path: string): Promise<void> {
  page.on('pageerror', (error) => console.error(error));
  await page.goto(`${service.url}${path}`);
  await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 60_000 });
}

const field = (page: Page) => page.getByRole('combobox', { name: 'Find a place' });
const status = (page: Page) => page.locator('.place-search [role="status"]');
const options = (page: Page) => page.getByRole('option');

/** Ring pixels in the middle of the map (where the map centres a place it flew to). */
async function ringAtMiddle(page: Page): Promise<number> {
  const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
  return pixelsNear(page, { x: box.x + box.width / 2 - 20, y: box.y + box.height / 2 - 20, width: 40, height: 40 }, RING, 60);
}

/** Types a query letter by letter and waits for its suggestions. */
async function typeQuery(page: Page, query: string): Promise<void> {
  await field(page).focus();
  await page.keyboard.type(query, { delay: 40 });
  await expect.poll(() => field(page).getAttribute('aria-expanded'), { timeout: 30_000 }).toBe('true');
  await expect.poll(() => options(page).count()).toBeGreaterThan(0);
}

describe('Find a place in Chromium', () => {
  it('on a map page: type, arrows, Enter → the map flies to the place; Escape closes, then clears', async () => {
    const user = await service.newUser();
    const map = await newMap(user.key, 'public');
    for (const width of [1280, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      await ownAddress(page);
      await opened(page, map.path);
      expect(await ringAtMiddle(page)).toBe(0);

      await typeQuery(page, 'lisb');
      // The suggestions of a shorter query typed on the way may show first: the query's own come next.
      await expect.poll(() => options(page).first().textContent()).toBe('Lisbon, Lisbon, Portugal');
      expect(await status(page).textContent()).toMatch(/^\d places found; the Down arrow goes through them, Enter chooses\.$/);
      expect(await page.getByText('GeoNames').getAttribute('href')).toBe('https://www.geonames.org/'); // the data's credit, with the results
      await page.screenshot({ path: `${SHOTS}/place-search-map-page-${width}.png` });
      expect(await accessibilityViolations(page)).toEqual([]);

      // The arrows move the active suggestion; the focus stays in the field.
      await page.keyboard.press('ArrowDown');
      expect(await field(page).getAttribute('aria-activedescendant')).toBe('place-option-0');
      await page.keyboard.press('ArrowDown');
      expect(await field(page).getAttribute('aria-activedescendant')).toBe('place-option-1');
      expect(await options(page).nth(1).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('ArrowUp');
      expect(await field(page).getAttribute('aria-activedescendant')).toBe('place-option-0');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('place-query');

      // Enter: the suggestions close, the map flies to Lisbon and marks it in its middle.
      await page.keyboard.press('Enter');
      expect(await field(page).getAttribute('aria-expanded')).toBe('false');
      expect(await field(page).inputValue()).toBe('Lisbon');
      await expect.poll(() => status(page).textContent(), { timeout: 10_000 }).toBe('The map shows Lisbon, Lisbon, Portugal.');
      await expect.poll(() => ringAtMiddle(page), { timeout: 10_000 }).toBeGreaterThan(20);
      await page.screenshot({ path: `${SHOTS}/place-search-map-page-${width}-lisbon.png` });

      // Escape: closes the suggestions, then clears the field.
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => field(page).getAttribute('aria-expanded'), { timeout: 10_000 }).toBe('true');
      await page.keyboard.press('Escape');
      expect(await field(page).getAttribute('aria-expanded')).toBe('false');
      expect(await field(page).inputValue()).toBe('Lisbon');
      await page.keyboard.press('Escape');
      expect(await field(page).inputValue()).toBe('');

      // Nothing found is said so; Enter then does nothing.
      await page.keyboard.type('qxqxq');
      await expect.poll(() => page.locator('.place-message').textContent(), { timeout: 10_000 }).toBe('No city or town found for “qxqxq”.');
      expect(await options(page).count()).toBe(0);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.close();
    }
  }, 180_000);

  it('in the editor: a place found, then Add (keyboard only) → a point titled with its name, one undoable edit, saved', async () => {
    const user = await service.newUser();
    const map = await newMap(user.key, 'private');
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await logIn(page, service.url, user.username);
      await opened(page, `${map.path}?edit=1`);
      const add = page.locator('.place-add');
      expect(await add.isVisible()).toBe(true);
      expect(await add.isDisabled()).toBe(true); // nothing found yet

      await typeQuery(page, 'zuri');
      // The suggestions of a shorter query typed on the way ("zu": Zunyi) may show first: the query's own come next.
      await expect.poll(() => options(page).first().textContent()).toBe('Zürich, Zurich, Switzerland');
      await page.screenshot({ path: `${SHOTS}/place-search-editor-${width}.png` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => status(page).textContent(), { timeout: 10_000 }).toBe('The map shows Zürich, Zurich, Switzerland.');
      await expect.poll(() => ringAtMiddle(page), { timeout: 10_000 }).toBeGreaterThan(20);

      // Tab reaches Add, named after the place; Enter adds the point, selected in the item panel.
      const listed = () => page.getByRole('button', { name: 'Zürich', exact: true }).count();
      const before = await listed(); // the first width's point is saved
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Add Zürich to the map as a point');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Zürich');
      expect(await page.locator('.editor-status').textContent()).toBe('“Zürich” added as a point.');
      const save = page.locator('.editor-toolbar button.save');
      expect(await save.textContent()).toBe('Save (1)');
      await expect.poll(listed).toBe(before + 1); // the list is drawn again at the next frame
      await page.screenshot({ path: `${SHOTS}/place-search-editor-${width}-added.png` });

      // One undoable edit: Undo takes the point away, Redo brings it back (Ctrl+Z, outside a text field).
      await page.keyboard.press('Escape'); // ends the selection (the focus is still on Add)
      await page.keyboard.press('Control+z');
      await expect.poll(() => save.textContent()).toBe('Saved');
      await expect.poll(listed).toBe(before);
      await page.keyboard.press('Control+Shift+z');
      await expect.poll(() => save.textContent()).toBe('Save (1)');
      await save.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.editor-status').textContent(), { timeout: 20_000 }).toBe('Saved.');
      await context.close();
    }

    const { geojson } = await service.call('map/get', user.key, { map_id: map.id });
    const added = (geojson.features as { geometry: { coordinates: number[] }; properties: { title: string } }[]).filter((feature) => feature.properties.title === 'Zürich');
    expect(added).toHaveLength(2); // one from each width
    for (const feature of added) expect(feature.geometry.coordinates).toEqual([8.55, 47.36667]);
  }, 180_000);
});
