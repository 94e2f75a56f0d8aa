// A map's page and its editor on a phone (issue 26, defect 7, and item 8's Undo): at 375 pixels
// the title and the description's first lines are above the map (Read more for the rest); the
// editor's toolbar is one row, what does not fit in its More menu button (aria-expanded, arrows,
// Escape and the keyboard back on More, an entry chooses its tool); deleting an item (its
// button or the Delete key) says so under the toolbar with an Undo that brings it back, gone on
// the next action. axe-core on each new state at 375 and 1280 pixels; screenshots of each.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, reachButton, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;
beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

const DESCRIPTION = [
  'Where to eat near the **river**, tried by the club over two summers.',
  'Prices are for one person with a drink. Most places close on Mondays; the bakery opens at seven.',
  'Ask for the terrace: the view of the bridges is the reason to come. Cash is welcome everywhere.',
  'The list grows every month: send us yours.',
].join('\n\n');

async function newMap(key: string): Promise<string> {
  const geojson = {
    type: 'FeatureCollection',
    groups: [{ id: 'g1', title: 'Food' }],
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Bistro', group: 'g1' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.36, 48.86] }, properties: { title: 'Bakery', group: 'g1' } },
    ],
  };
  const made = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Eating by the river', description: DESCRIPTION }, JSON.stringify(geojson));
  expect(made.error).toBeUndefined();
  return new URL(made.url as string).pathname;
}

async function opened(width: number, username: string | undefined, address: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 740 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  if (username) await logIn(page, service.url, username);
  await page.goto(`${service.url}${address}`);
  await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
  return { context, page, errors };
}

const tops = (page: Page, selector: string) => page.locator(selector).evaluateAll((nodes) => nodes.filter((node) => node.getClientRects().length > 0).map((node) => Math.round(node.getBoundingClientRect().top)));
const focusedText = (page: Page) => page.evaluate(() => `${document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName.toLowerCase()}: ${document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim()}`);

describe('a map on a phone', () => {
  it('shows the title and the description’s first lines above the map, Read more for the rest', async () => {
    const user = await service.newUser();
    const path = await newMap(user.key);
    const { context, page, errors } = await opened(375, undefined, path);
    const map = (await page.locator('.map-canvas').boundingBox())!;
    const title = (await page.getByRole('heading', { level: 1, name: 'Eating by the river' }).boundingBox())!;
    const first = (await page.locator('.map-heading .description p').first().boundingBox())!;
    expect(title.y + title.height).toBeLessThanOrEqual(map.y);
    expect(first.y + first.height).toBeLessThanOrEqual(map.y);
    expect(first.y).toBeLessThan(740); // on the first screen
    const more = page.getByRole('button', { name: 'Read more' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByText('The list grows every month').isVisible()).toBe(true); // in the page, clamped…
    const clamped = (await page.locator('.map-heading .description').boundingBox())!;
    await page.screenshot({ path: `${SHOTS}/phone-map-page-375.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await more.click();
    expect(await page.getByRole('button', { name: 'Read less' }).getAttribute('aria-expanded')).toBe('true');
    expect((await page.locator('.map-heading .description').boundingBox())!.height).toBeGreaterThan(clamped.height + 40);
    await page.screenshot({ path: `${SHOTS}/phone-map-page-read-more-375.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    // A wide screen: this description (ten lines there, under the twelve shown) whole beside the map, no Read more.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.locator('.read-more').isVisible()).toBe(false);
    expect(await page.getByText('The list grows every month').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/phone-map-page-1280.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the editor’s toolbar in one row, the rest in a More menu the keyboard uses', async () => {
    const user = await service.newUser();
    const path = await newMap(user.key);
    const { context, page, errors } = await opened(375, user.username, `${path}?edit=1`);
    const toolbar = page.getByRole('toolbar', { name: 'Map editing' });
    const more = toolbar.getByRole('button', { name: 'More tools' });
    await more.waitFor();
    // One row: every button shown has the same top, the toolbar one button high.
    expect(new Set(await tops(page, '.editor-toolbar > button, .editor-toolbar .more'))).toHaveLength(1);
    const bar = (await toolbar.boundingBox())!;
    const map = (await page.locator('.map-canvas').boundingBox())!;
    console.info(`toolbar at 375 px: ${Math.round(bar.width)}×${Math.round(bar.height)} over a map of ${Math.round(map.height)} px`);
    expect(bar.height).toBeLessThan(45);
    expect(bar.x + bar.width).toBeLessThanOrEqual(map.x + map.width - 40); // clear of the zoom buttons
    // The drawing tools in the row (Area too), the less used actions in More.
    for (const tool of ['Select and edit items', 'Draw a point', /^Draw a line/, /^Draw an area/]) expect(await toolbar.getByRole('button', { name: tool }).isVisible()).toBe(true);
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await page.screenshot({ path: `${SHOTS}/phone-toolbar-375.png` });

    // The keyboard: Enter opens the menu on its first entry, arrows move, Escape closes it back on More.
    await more.focus();
    await page.keyboard.press('Enter');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    const menu = page.getByRole('menu', { name: 'More tools' });
    expect(await menu.isVisible()).toBe(true);
    const entries = await menu.locator('[role^="menuitem"]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? node.textContent));
    console.info(`in More at 375 px: ${entries.join(' · ')}`);
    expect(entries).toContain('Select several items: drag a box');
    expect(entries).toContain('History: earlier versions of the map');
    expect(entries.filter((entry) => /^(Select and edit|Draw a point|Draw a line|Draw an area)/.test(entry ?? ''))).toEqual([]);
    expect(await focusedText(page)).toBe(`${await menu.locator('[role^="menuitem"]').first().getAttribute('role')}: ${entries[0]}`);
    await page.keyboard.press('End');
    expect(await focusedText(page)).toMatch(new RegExp(`: ${entries.at(-1)!.replace(/[()+]/g, '\\$&')}$`));
    await page.keyboard.press('ArrowDown'); // wraps to the first
    expect(await focusedText(page)).toMatch(new RegExp(`: ${entries[0]!.replace(/[()+]/g, '\\$&')}$`));
    await page.screenshot({ path: `${SHOTS}/phone-toolbar-menu-375.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await focusedText(page)).toBe('button: More tools');

    // An entry chooses its tool: Box, from the menu by the keyboard; the entry then says it is on.
    await page.keyboard.press('ArrowDown');
    const box = menu.getByRole('menuitemradio', { name: 'Select several items: drag a box' });
    expect(await box.getAttribute('aria-checked')).toBe('false');
    for (let i = 0; i < entries.length && !(await box.evaluate((node) => node === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await menu.isVisible()).toBe(false);
    expect(await focusedText(page)).toBe('button: More tools');
    await expect.poll(() => page.locator('button[data-tool="box"]').getAttribute('aria-pressed')).toBe('true');
    await more.click();
    expect(await box.getAttribute('aria-checked')).toBe('true');
    // A click elsewhere closes it.
    await page.getByRole('heading', { level: 1 }).click();
    expect(await more.getAttribute('aria-expanded')).toBe('false');

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => more.isVisible()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/phone-toolbar-1280.png` });
    await page.setViewportSize({ width: 375, height: 740 });
    await expect.poll(() => more.isVisible()).toBe(true);

    // History through the menu opens the History panel.
    await more.click();
    await menu.getByRole('menuitemcheckbox', { name: 'History: earlier versions of the map' }).click();
    await expect.poll(() => page.locator('.history-panel').isVisible()).toBe(true);
    expect(await focusedText(page)).toBe('button: More tools');

    // A wide screen: every tool in the row, no More.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => more.isVisible()).toBe(false);
    expect(await toolbar.getByRole('button', { name: 'Select several items: drag a box' }).isVisible()).toBe(true);
    expect(new Set(await tops(page, '.editor-toolbar > button'))).toHaveLength(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    // Back to a phone: folded again.
    await page.setViewportSize({ width: 375, height: 740 });
    await expect.poll(() => more.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the drawing tools in the row at 375 px while Save counts hundreds of changes', async () => {
    const user = await service.newUser();
    const features = Array.from({ length: 150 }, (_, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [2.3 + (i % 15) * 0.01, 48.8 + Math.floor(i / 15) * 0.01] }, properties: { title: `P${i}` } }));
    const made = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Many' }, JSON.stringify({ type: 'FeatureCollection', features }));
    expect(made.error).toBeUndefined();
    const { context, page, errors } = await opened(375, user.username, `${new URL(made.url as string).pathname}?edit=1`);
    const toolbar = page.getByRole('toolbar', { name: 'Map editing' });
    await toolbar.getByRole('button', { name: 'More tools' }).waitFor();
    // Every point recoloured at once (Box over the whole map, a colour for all): Save (150).
    await (await reachButton(page, 'Select several items: drag a box')).click();
    const map = (await page.locator('.maplibregl-canvas').boundingBox())!;
    await page.mouse.move(map.x + 5, map.y + 5);
    await page.mouse.down();
    await page.mouse.move(map.x + map.width / 2, map.y + map.height / 2, { steps: 4 });
    await page.mouse.move(map.x + map.width - 5, map.y + map.height - 5, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.locator('.selection-panel h2').textContent()).toBe('150 items selected');
    await page.getByRole('button', { name: 'Colour #e7298a' }).click();
    await expect.poll(() => page.locator('.editor-toolbar button.save').textContent()).toBe('Save (150)');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (const tool of ['Select and edit items', 'Draw a point', /^Draw a line/, /^Draw an area/]) expect(await toolbar.getByRole('button', { name: tool }).isVisible()).toBe(true);
    expect(new Set(await tops(page, '.editor-toolbar > button, .editor-toolbar .more'))).toHaveLength(1);
    await page.screenshot({ path: `${SHOTS}/phone-toolbar-save-375.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [375, 1280]) {
    it(`says an item was deleted with an Undo that brings it back (${width} px)`, async () => {
      const user = await service.newUser();
      const path = await newMap(user.key);
      const { context, page, errors } = await opened(width, user.username, `${path}?edit=1`);
      const toast = page.locator('.undo-toast');
      const undo = page.getByRole('button', { name: 'Undo: Point deleted' });
      // With the item panel's Delete item.
      await page.getByRole('button', { name: 'Bistro', exact: true }).click();
      await page.getByRole('button', { name: 'Delete item' }).click();
      await expect.poll(() => toast.textContent()).toBe('Point deleted. Undo');
      expect(await toast.isVisible()).toBe(true);
      await expect.poll(() => page.locator('[data-announcer]').textContent()).toBe('Point deleted. Press Undo or Ctrl+Z to bring it back.');
      expect(await page.locator('.item-list [data-item-id]').count()).toBe(1);
      // Reached by the keyboard: Shift+Tab from the map (the line comes just before it). Focused,
      // the line stays (it hides after 10 s otherwise), so it is looked at and checked then.
      await page.locator('.maplibregl-canvas').focus();
      await page.keyboard.press('Shift+Tab');
      expect(await focusedText(page)).toBe('button: Undo: Point deleted');
      await page.screenshot({ path: `${SHOTS}/phone-deleted-${width}.png` });
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.item-list [data-item-id]').count()).toBe(2);
      expect(await toast.isVisible()).toBe(false);
      expect(await page.locator('#item-title').inputValue()).toBe('Bistro'); // back, selected
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('item-title');

      // With the Delete key: the line again; the next action (another item opened) takes it away.
      await page.locator('#item-title').blur();
      await page.keyboard.press('Delete');
      await expect.poll(() => toast.isVisible()).toBe(true);
      expect(await undo.isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Bakery', exact: true }).click();
      await expect.poll(() => toast.isVisible()).toBe(false);
      expect(await page.locator('.item-list [data-item-id]').count()).toBe(1); // Bistro stays deleted
      expect(await page.locator('.editor-toolbar button.save').textContent()).toBe('Save (1)');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
