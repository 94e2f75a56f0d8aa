// The editor with the keyboard alone (issue 26 defect 2): log in, New map, a point, a line and an
// area drawn at the map's crosshair (Enter adds there, the arrows move the map, Enter on the last
// point or Escape finishes), one titled, a point moved by its Latitude field and by the arrows,
// saved and read back — no mouse event sent (the page counts them). Focus: the panel's first field
// when an item opens (from the map or the list), back to the list entry when it closes, the status
// line after Save. The list: one Tab stop per item. Screenshots at 1280 and 375 px, axe-core.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { ownAddress, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';
import type { Browser } from 'playwright-core';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Doc = { features: { id: number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[] };

/** Counts every pointer and mouse event the page gets (a keyboard's Enter on a button gives a click, but no pointerdown or mousedown). */
const COUNT_POINTER = () => {
  const counts = { pointer: 0 };
  (window as unknown as { pointerEvents: typeof counts }).pointerEvents = counts;
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'pointermove', 'mousemove', 'wheel']) window.addEventListener(type, () => counts.pointer++, true);
};
const pointerEvents = (page: Page) => page.evaluate(() => (window as unknown as { pointerEvents?: { pointer: number } }).pointerEvents?.pointer ?? -1);

/** What has the keyboard: an element's tag, id, class, text or label, for the tests to match. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return { tag: active?.tagName.toLowerCase() ?? '', id: active?.id ?? '', className: active?.getAttribute('class') ?? '', text: active?.textContent?.trim() ?? '', label: active?.getAttribute('aria-label') ?? '' };
  });

/** Presses Tab (or Shift+Tab) until `wanted` has the keyboard; how many presses it took. */
async function tabTo(page: Page, wanted: (active: Awaited<ReturnType<typeof focused>>) => boolean, { back = false, most = 80 } = {}): Promise<number> {
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (wanted(await focused(page))) return presses;
  }
  throw new Error(`not reached in ${most} presses: ${JSON.stringify(await focused(page))}`);
}
const isMap = (active: Awaited<ReturnType<typeof focused>>) => active.className.includes('maplibregl-canvas');
const button = (label: string) => (active: Awaited<ReturnType<typeof focused>>) => active.tag === 'button' && (active.label === label || active.text === label);

const announced = (page: Page) => page.locator('[data-announcer]').textContent();
const readout = (page: Page) => page.locator('.drawing-readout').textContent();

/** Moves the map with an arrow key until the readout's length (to the crosshair) has grown: the map has moved. */
async function pan(page: Page, key: string, times = 2): Promise<void> {
  const before = (await readout(page)) ?? '';
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
  await expect.poll(() => readout(page)).not.toBe(before);
  // MapLibre eases each press over 300 ms (longer on a loaded machine): the vertex goes where the
  // map stops, so wait until the readout holds still for a quarter second.
  let last = await readout(page);
  await expect
    .poll(
      async () => {
        await page.waitForTimeout(250);
        const now = await readout(page);
        const still = now === last;
        last = now;
        return still;
      },
      { timeout: 15_000, interval: 0 },
    )
    .toBe(true);
}

describe('the editor with the keyboard alone', () => {
  it('logs in, makes a map, draws a point, a line and an area, titles, moves, saves: no mouse', async () => {
    const user = await service.newUser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(COUNT_POINTER);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await ownAddress(page);

    // Log in: the skip link is the first Tab stop, then the fields.
    await page.goto(`${service.url}/login`);
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Skip to content');
    await tabTo(page, (active) => active.id !== '' && active.tag === 'input');
    await page.keyboard.type(user.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse');
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login')), page.keyboard.press('Enter')]);
    expect(await pointerEvents(page)).toBe(0);

    // New map from My maps.
    await page.goto(`${service.url}/maps`);
    await tabTo(page, (active) => active.tag === 'input' && active.id !== '');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toMatch(/Title of a new map/);
    await page.keyboard.type('By keyboard');
    await Promise.all([page.waitForURL(/\?edit=1$/), page.keyboard.press('Enter')]);
    const path = new URL(page.url()).pathname;
    await expect.poll(() => page.getByRole('button', { name: 'Draw a point' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });

    // The toolbar comes before the side panel: a few Tabs from the top of the page.
    await page.keyboard.press('Escape');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const toToolbar = await tabTo(page, button('Draw a point'));
    console.info(`Tab presses from the top of the page to the Point tool: ${toToolbar}`);
    expect(toToolbar).toBeLessThan(20);

    // A point: the Point tool, the map, Enter at the crosshair.
    await page.keyboard.press('Enter');
    expect(await page.getByRole('button', { name: 'Draw a point' }).getAttribute('aria-pressed')).toBe('true');
    await tabTo(page, isMap);
    await expect.poll(() => page.locator('.keyboard-crosshair').isVisible()).toBe(true);
    expect(await page.locator('#map-keyboard-help').textContent()).toMatch(/Enter or Space puts a point there/);
    expect(await page.locator('.maplibregl-canvas').getAttribute('aria-describedby')).toBe('map-keyboard-help');
    await page.screenshot({ path: `${SHOTS}/editor-keyboard-crosshair.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    await expect.poll(() => announced(page)).toBe('Point added.');
    // The panel's first field has the keyboard: the title is typed at once.
    expect((await focused(page)).id).toBe('item-title');
    await page.keyboard.type('Keyboard point');
    await page.keyboard.press('Tab');
    // Its place as numbers: the Latitude field moves it (one edit).
    const latitude = page.getByLabel(/^Latitude/);
    const longitude = page.getByLabel(/^Longitude/);
    const startLat = Number(await latitude.inputValue());
    const startLon = Number(await longitude.inputValue());
    expect(Number.isFinite(startLat) && Number.isFinite(startLon)).toBe(true);
    await tabTo(page, (active) => active.id === 'item-latitude');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('95');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#item-coordinates-error').textContent()).toMatch(/Latitude: a number from −85 to 85/);
    expect(await latitude.getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: `${SHOTS}/editor-keyboard-point-panel.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Control+a');
    await page.keyboard.type(String(Math.round((startLat + 0.01) * 1e5) / 1e5));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#item-coordinates-error').count()).toBe(0);
    expect(await latitude.getAttribute('aria-invalid')).toBe(null);
    expect(await page.locator('.editor-toolbar button.save').textContent()).toBe('Save (1)'); // one new item (added, titled, moved)
    // A colour swatch chosen: the panel is drawn again, the keyboard stays on the swatch.
    await tabTo(page, (active) => active.label === 'Colour #e7298a');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Colour #e7298a' }).getAttribute('aria-pressed')).toBe('true');
    expect((await focused(page)).label).toBe('Colour #e7298a');
    // Escape closes the panel: the keyboard goes back to the map it was opened from.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByLabel('Selected item', { exact: true }).isVisible()).toBe(false);
    expect(isMap(await focused(page))).toBe(true);
    // Back on Select: Enter opens the item under the crosshair (the point, still at the map's centre).
    expect(await page.locator('#map-keyboard-help').textContent()).toMatch(/Enter opens the item there/);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).id).toBe('item-title');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Keyboard point');
    await page.keyboard.press('Escape');
    await expect.poll(async () => isMap(await focused(page))).toBe(true);

    // A line: three points, Enter again on the last one finishes it.
    await tabTo(page, button('Draw a line: click for each point, click the last one again to finish'), { back: true });
    await page.keyboard.press('Enter');
    await tabTo(page, isMap);
    expect(await page.locator('#map-keyboard-help').textContent()).toMatch(/Enter again on the last point, or Escape, finishes it/);
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page)).toBe('Point 1 of the line placed.');
    await page.keyboard.press('Enter'); // not moved: a line needs two points first
    await expect.poll(() => announced(page)).toMatch(/^Move the map to place the next point/);
    await pan(page, 'ArrowRight');
    await page.keyboard.press(' ');
    await expect.poll(() => announced(page)).toBe('Point 2 of the line placed. Enter again here, or Escape, finishes it.');
    await pan(page, 'ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page)).toMatch(/^Point 3 of the line placed/);
    await page.screenshot({ path: `${SHOTS}/editor-keyboard-line.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page)).toBe('Line added.');
    expect((await focused(page)).id).toBe('item-title');
    await page.keyboard.press('Escape');

    // An area: three corners, Escape closes it.
    await tabTo(page, button('Draw an area: click for each corner, click the first one to close it'), { back: true });
    await page.keyboard.press('Enter');
    await tabTo(page, isMap);
    await page.keyboard.press('Enter');
    await pan(page, 'ArrowLeft');
    await page.keyboard.press('Enter');
    await pan(page, 'ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page)).toMatch(/^Corner 3 of the area placed/);
    await page.keyboard.press('Escape');
    await expect.poll(() => announced(page)).toBe('Area added.');
    expect((await focused(page)).id).toBe('item-title');
    await page.keyboard.type('Keyboard area');
    await page.keyboard.press('Escape'); // the title is kept: the field's change goes first
    await expect.poll(() => page.locator('.editor-toolbar button.save').textContent()).toBe('Save (3)');

    // From the list: Enter on the point's entry opens it, the keyboard in its Title; the arrows
    // on the map move it; Escape brings the keyboard back to the list entry.
    await tabTo(page, (active) => active.text === 'Keyboard point' && active.tag === 'button');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).id).toBe('item-title');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Keyboard point');
    const lonBefore = Number(await longitude.inputValue());
    await tabTo(page, isMap, { back: true });
    expect(await page.locator('#map-keyboard-help').textContent()).toMatch(/arrows move the selected point/);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => announced(page)).toMatch(/^Point moved to latitude/);
    await expect.poll(async () => Number(await longitude.inputValue())).toBeGreaterThan(lonBefore);
    await tabTo(page, (active) => active.id === 'item-title');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await focused(page)).text).toBe('Keyboard point');
    expect((await focused(page)).tag).toBe('button');

    // Save: the keyboard on the status line that says so.
    await tabTo(page, (active) => active.className.includes('save'), { back: true });
    expect((await focused(page)).text).toBe('Save (3)');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Saved.');
    expect((await focused(page)).className).toContain('editor-status');
    expect(await pointerEvents(page)).toBe(0);
    expect(errors).toEqual([]);

    // Reopened: the three items as drawn.
    await page.goto(`${service.url}${path}`);
    await expect.poll(() => page.locator('.item-list .item').count(), { timeout: 20_000 }).toBe(3);
    const mapId = ((await service.call('map/list', user.key)).owner as { id: number }[])[0]!.id;
    const doc = (await service.call('map/get', user.key, { map_id: mapId })).geojson as Doc;
    const byType = Object.fromEntries(doc.features.map((feature) => [feature.geometry.type, feature]));
    expect(byType.Point?.properties.title).toBe('Keyboard point');
    expect(byType.LineString?.geometry.coordinates as unknown[]).toHaveLength(3);
    expect((byType.Polygon?.geometry.coordinates as unknown[][])[0]).toHaveLength(4);
    expect(byType.Polygon?.properties.title).toBe('Keyboard area');
    const [lon, lat] = byType.Point!.geometry.coordinates as [number, number];
    expect(lat).toBeCloseTo(startLat + 0.01, 4);
    expect(lon).toBeGreaterThan(startLon);
    expect(await pointerEvents(page)).toBe(0);
    await context.close();
  });

  it('has one Tab stop per group row too, its eye and Edit reached by the arrows', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      groups: [
        { id: 'g1', title: 'Trails' },
        { id: 'g2', title: 'Huts', parent: 'g1' },
        { id: 'g3', title: 'Food' },
      ],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'Ridge', group: 'g1' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.1, 48.1] }, properties: { title: 'Refuge', group: 'g2' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.2, 48.2] }, properties: { title: 'Bakery', group: 'g3' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.3, 48.3] }, properties: { title: 'Spring' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Grouped' }, JSON.stringify(geojson));
    expect(map.error).toBeUndefined();
    const path = new URL(map.url as string).pathname;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await ownAddress(page);
    const summary = (title: string) => page.locator('.item-list summary', { hasText: title }).first();
    const isSummary = (title: string) => (active: Awaited<ReturnType<typeof focused>>) => active.tag === 'summary' && active.text.startsWith(title);
    /** The rows' titles passed by Tab from the first group's title to the last item's. */
    const rowsByTab = async () => {
      await summary('Trails').focus();
      const seen = [(await focused(page)).text];
      while (seen.at(-1) !== 'Spring' && seen.length < 20) {
        await page.keyboard.press('Tab');
        seen.push((await focused(page)).text);
      }
      return seen;
    };
    const rows = ['Trails (2)', 'Huts (1)', 'Refuge', 'Ridge', 'Food (1)', 'Bakery', 'Spring'];

    // The visitor's page: a group row is one Tab stop (its title), its eye toggle on ←.
    await page.goto(`${service.url}${path}`);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
    expect(await rowsByTab()).toEqual(rows);
    await summary('Food').focus();
    await page.keyboard.press('ArrowLeft');
    expect((await focused(page)).label).toBe('Show or hide the group Food');
    await page.keyboard.press('ArrowRight');
    expect(isSummary('Food')(await focused(page))).toBe(true);

    // The editor: still one Tab stop a row, though each group has its Edit now.
    await page.goto(`${service.url}/login`);
    await page.getByLabel('Username or e-mail address').fill(user.username);
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login')), page.getByRole('button', { name: 'Log in' }).press('Enter')]);
    await page.goto(`${service.url}${path}?edit=1`);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
    await expect.poll(() => page.getByRole('button', { name: 'Edit the group Trails' }).count()).toBe(1);
    expect(await rowsByTab()).toEqual(rows);
    // Its title tells the keys (its description); ← the eye, → back, → Edit, ← back; ↓ the next row.
    expect(await summary('Trails').evaluate((node) => document.getElementById(node.getAttribute('aria-describedby') ?? '')?.textContent)).toMatch(/→ a group’s Edit/);
    await summary('Trails').focus();
    await page.keyboard.press('ArrowLeft');
    expect((await focused(page)).label).toBe('Show or hide the group Trails');
    await page.keyboard.press('Enter'); // hides the group's items
    await expect.poll(() => page.getByRole('button', { name: 'Show or hide the group Trails' }).getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Show or hide the group Trails' }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect((await focused(page)).label).toBe('Edit the group Trails');
    await page.keyboard.press('ArrowLeft');
    expect(isSummary('Trails')(await focused(page))).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(isSummary('Huts')(await focused(page))).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect((await focused(page)).text).toBe('Refuge');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    expect((await focused(page)).label).toBe('Edit the group Huts');
    // Enter on Edit: the group's form, the keyboard in its title; renamed; Done: back on Edit.
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).id).toBe('group-title-g2');
    expect(await page.getByRole('button', { name: 'Edit the group Huts' }).getAttribute('aria-expanded')).toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Shelters');
    await page.keyboard.press('Enter');
    await expect.poll(() => summary('Shelters').count()).toBe(1);
    await tabTo(page, button('Done'));
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).label).toBe('Edit the group Shelters');
    expect(await page.getByRole('button', { name: 'Edit the group Shelters' }).getAttribute('aria-expanded')).toBe('false');
    // Enter on a group's title folds it: its rows leave the arrows' way.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    expect(isSummary('Trails')(await focused(page))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => summary('Trails').evaluate((node) => (node.parentElement as HTMLDetailsElement).open)).toBe(false);
    await page.keyboard.press('ArrowDown');
    expect(isSummary('Food')(await focused(page))).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-keyboard-groups.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has one Tab stop per list item, and the crosshair and help on a phone', async () => {
    const user = await service.newUser();
    const features = Array.from({ length: 30 }, (_, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [2 + i * 0.01, 48 + i * 0.01] }, properties: { title: `Stop ${i + 1}` } }));
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Stops' }, JSON.stringify({ type: 'FeatureCollection', features }));
    expect(map.error).toBeUndefined();
    const path = new URL(map.url as string).pathname;
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await ownAddress(page);
    await page.goto(`${service.url}/login`);
    await page.getByLabel('Username or e-mail address').fill(user.username);
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login')), page.getByRole('button', { name: 'Log in' }).press('Enter')]);
    await page.goto(`${service.url}${path}?edit=1`);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });

    // The toolbar before the list: as few Tabs from the top of the page as on an empty map.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const toToolbar = await tabTo(page, button('Draw a point'));
    console.info(`Tab presses from the top of a 30-item map's page to the Point tool: ${toToolbar}`);
    expect(toToolbar).toBeLessThan(20);
    // From the first item's title, 30 Tabs pass the 30 items (the eye toggles are not Tab stops).
    await page.getByRole('button', { name: 'Stop 1', exact: true }).focus();
    const first = await tabTo(page, (active) => active.text === 'Stop 30');
    expect(first).toBe(29);
    // ← reaches the eye toggle, → back, ↓ the next item.
    await page.keyboard.press('ArrowLeft');
    expect((await focused(page)).label).toBe('Show or hide Stop 30');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    expect((await focused(page)).text).toBe('Stop 29');

    // The skip link goes to the items.
    await page.getByRole('link', { name: 'Skip to the items' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toMatch(/^(New group|Stop 1)$/);

    // On a phone: the Line tool, the map with the keyboard, the crosshair and the help line.
    await page.getByRole('button', { name: /^Draw a line/ }).focus();
    await page.keyboard.press('Enter');
    await tabTo(page, isMap);
    await expect.poll(() => page.locator('.keyboard-crosshair').isVisible()).toBe(true);
    expect(await page.locator('#map-keyboard-help').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-keyboard-375.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await context.close();
  });
});
