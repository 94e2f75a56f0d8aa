// Moving a line's or an area's vertices with the keyboard alone (issue 26): the item opened from
// the list, the map given the keyboard, V chooses the next vertex (Shift+V the one before) and a
// ring marks it on the map, the arrows move it ("Vertex 2 of 3 moved."), each press one edit that
// Ctrl+Z undoes, Delete takes the vertex out (an area keeps three), Escape lets the vertex go
// before it closes the item; an area's first corner moves with its closing copy. Saved and read
// back through map/get; no mouse event sent; axe-core.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { ownAddress, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Position = [number, number];
type Doc = { features: { id: number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[] };

/** Counts every pointer and mouse event the page gets once logged in. */
const COUNT_POINTER = () => {
  const counts = { pointer: 0 };
  (window as unknown as { pointerEvents: typeof counts }).pointerEvents = counts;
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'pointermove', 'mousemove', 'wheel']) window.addEventListener(type, () => counts.pointer++, true);
};
const pointerEvents = (page: Page) => page.evaluate(() => (window as unknown as { pointerEvents?: { pointer: number } }).pointerEvents?.pointer ?? -1);

const isMap = (page: Page) => page.evaluate(() => document.activeElement?.classList.contains('maplibregl-canvas') ?? false);
async function shiftTabToMap(page: Page): Promise<void> {
  for (let presses = 0; presses < 60 && !(await isMap(page)); presses++) await page.keyboard.press('Shift+Tab');
  expect(await isMap(page)).toBe(true);
}
const announced = (page: Page) => page.locator('[data-announcer]').textContent();
const saveText = (page: Page) => page.locator('.editor-toolbar button.save').textContent();
/** The centre of the ring that marks the chosen vertex, in page pixels (undefined: no ring). */
const ringAt = (page: Page): Promise<Position | undefined> =>
  page.evaluate(() => {
    const ring = document.querySelector('.keyboard-vertex');
    if (!ring) return undefined;
    const box = ring.getBoundingClientRect();
    return [box.x + box.width / 2, box.y + box.height / 2] as [number, number];
  });

const LINE: Position[] = [
  [2.0, 48.0],
  [2.05, 48.02],
  [2.1, 48.0],
];
const AREA: Position[] = [
  [2.0, 48.04],
  [2.1, 48.04],
  [2.1, 48.08],
  [2.0, 48.08],
  [2.0, 48.04],
];

describe('moving vertices with the keyboard', () => {
  it('chooses a vertex of a line and of an area with V, moves it with the arrows, undoes, saves: no mouse', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'LineString', coordinates: LINE }, properties: { title: 'Trail' } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [AREA] }, properties: { title: 'Meadow' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Shapes' }, JSON.stringify(geojson));
    expect(map.error).toBeUndefined();
    const path = new URL(map.url as string).pathname;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await ownAddress(page);
    await page.goto(`${service.url}/login`);
    await page.getByLabel('Username or e-mail address').fill(user.username);
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login')), page.getByLabel('Password').press('Enter')]);
    await context.addInitScript(COUNT_POINTER);
    await page.goto(`${service.url}${path}?edit=1`);
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
    const help = page.locator('#map-keyboard-help');

    // The line, opened from the list; the map gets the keyboard (Shift+Tab from its Title).
    await page.getByRole('button', { name: 'Trail', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('item-title');
    await shiftTabToMap(page);
    expect(await help.textContent()).toMatch(/V chooses a vertex of the selected shape \(Shift\+V the one before\)/);
    expect(await ringAt(page)).toBeUndefined();
    await page.keyboard.press('v');
    await expect.poll(() => announced(page)).toMatch(/^Vertex 1 of 3 chosen, at latitude 48\.00000, longitude 2\.00000\./);
    await page.keyboard.press('v');
    await expect.poll(() => announced(page)).toMatch(/^Vertex 2 of 3 chosen, at latitude 48\.02000, longitude 2\.05000\./);
    expect(await help.textContent()).toMatch(/arrows move the chosen vertex/);
    await expect.poll(() => page.locator('.keyboard-vertex').isVisible()).toBe(true);
    const ring = (await ringAt(page))!;
    await page.screenshot({ path: `${SHOTS}/editor-keyboard-vertex.png` });
    expect(await accessibilityViolations(page)).toEqual([]);

    // The arrows move it (the map stays): one edit a press, the ring with it.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => announced(page)).toBe('Vertex 2 of 3 moved.');
    await expect.poll(() => saveText(page)).toBe('Save (1)');
    await expect.poll(async () => (await ringAt(page))![0] - ring[0]).toBeGreaterThan(8);
    expect(Math.abs((await ringAt(page))![1] - ring[1])).toBeLessThan(1);
    const afterRight = (await ringAt(page))!;
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => afterRight[1] - (await ringAt(page))![1]).toBeGreaterThan(8);
    // Ctrl+Z undoes the last press (each press is a step): the vertex, and its ring, back down.
    const afterUp = (await ringAt(page))!;
    await page.keyboard.press('Control+z');
    await expect.poll(() => announced(page)).toBe('Undone.');
    await expect.poll(async () => (await ringAt(page))![1] - afterUp[1]).toBeGreaterThan(8);
    expect(Math.abs((await ringAt(page))![0] - afterRight[0])).toBeLessThan(1);
    expect(await saveText(page)).toBe('Save (1)'); // the line is still changed: by the first press
    // Shift+V the vertex before; Escape lets it go, the item stays open; Escape again closes it.
    await page.keyboard.press('Shift+V');
    await expect.poll(() => announced(page)).toMatch(/^Vertex 1 of 3 chosen/);
    await page.keyboard.press('Escape');
    await expect.poll(() => announced(page)).toBe('Vertex let go.');
    expect(await page.locator('.keyboard-vertex').count()).toBe(0);
    expect(await page.getByLabel('Selected item', { exact: true }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByLabel('Selected item', { exact: true }).isVisible()).toBe(false);

    // The area: Shift+V from none is its last corner, V wraps to the first, which moves with its closing copy.
    await page.getByRole('button', { name: 'Meadow', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('item-title');
    await shiftTabToMap(page);
    await page.keyboard.press('Shift+V');
    await expect.poll(() => announced(page)).toMatch(/^Vertex 4 of 4 chosen/);
    await page.keyboard.press('v');
    await expect.poll(() => announced(page)).toMatch(/^Vertex 1 of 4 chosen/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => announced(page)).toBe('Vertex 1 of 4 moved.');
    await expect.poll(() => saveText(page)).toBe('Save (2)');
    const corner = (await ringAt(page))!;
    await page.keyboard.press('Shift+ArrowLeft'); // one pixel
    await expect.poll(async () => corner[0] - (await ringAt(page))![0]).toBeGreaterThan(0.5);
    expect(corner[0] - (await ringAt(page))![0]).toBeLessThan(2);
    // Delete takes the chosen vertex out (the next one is chosen), not the area; an area keeps three.
    await page.keyboard.press('v');
    await expect.poll(() => announced(page)).toMatch(/^Vertex 2 of 4 chosen/);
    await page.keyboard.press('Delete');
    await expect.poll(() => announced(page)).toBe('Vertex 2 of 4 deleted.');
    await page.keyboard.press('Backspace');
    await expect.poll(() => announced(page)).toBe('Vertex 2 of 3 stays: an area needs three.');
    expect(await page.getByLabel('Selected item', { exact: true }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByLabel('Selected item', { exact: true }).isVisible()).toBe(false);

    // Saved: the line's second vertex moved east (the others as they were), the area's first corner
    // moved south and a little west, its ring still closed.
    await page.locator('.editor-toolbar button.save').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.editor-status').textContent(), { timeout: 20_000 }).toBe('Saved.');
    expect(await pointerEvents(page)).toBe(0);
    expect(errors).toEqual([]);
    const mapId = ((await service.call('map/list', user.key)).owner as { id: number }[])[0]!.id;
    const doc = (await service.call('map/get', user.key, { map_id: mapId })).geojson as Doc;
    const line = doc.features.find((feature) => feature.properties.title === 'Trail')!.geometry.coordinates as Position[];
    expect(line[0]).toEqual(LINE[0]);
    expect(line[2]).toEqual(LINE[2]);
    expect(line[1]![0]).toBeGreaterThan(LINE[1]![0]);
    expect(line[1]![1]).toBeCloseTo(LINE[1]![1], 6);
    const ringOut = (doc.features.find((feature) => feature.properties.title === 'Meadow')!.geometry.coordinates as Position[][])[0]!;
    expect(ringOut).toHaveLength(4);
    expect(ringOut[3]).toEqual(ringOut[0]);
    expect(ringOut[0]![1]).toBeLessThan(AREA[0]![1]);
    expect(ringOut[0]![0]).toBeLessThan(AREA[0]![0]);
    expect(ringOut.slice(1, 3)).toEqual(AREA.slice(2, 4));
    await context.close();
  });
});
