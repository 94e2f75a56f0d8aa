// Measuring, snapping and shape edits in the map editor, in Chromium: the length (and area) of
// what is drawn shown live over the map; a vertex drag updating the item panel's length as it
// goes, counted as an edit at once (Save enabled, one undo step that the drawing's handles
// follow); a point dragged and saved while still selected; a line's vertex clicked a few pixels
// from a saved point ending exactly on it (and one near a saved line ending on the line); a line
// extended from its end (Ctrl-click, and the Extend line button) as the same feature; a vertex
// deleted by a right-click. Read back through map/get. Screenshots in test/e2e/screenshots/.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Position = [number, number];
type Doc = { features: { id: number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[] };
type Box = { x: number; y: number; width: number; height: number };

/** The padding the map keeps around its features when it opens (web/app/mapAdapter.ts). */
const FIT_PADDING = 48;
// A horizontal line 0.02° long around Paris: the map opens with it across the canvas, FIT_PADDING from each side, at mid-height.
const LON = 2.35;
const LAT = 48.85;
const WALK: Position[] = [
  [2.34, LAT],
  [2.36, LAT],
];

async function newMap(key: string, features: unknown[]) {
  const map = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Measured' }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(map.error).toBeUndefined();
  return { id: map.id as number, path: new URL(map.url as string).pathname };
}

const documentOf = async (key: string, id: number) => (await service.call('map/get', key, { map_id: id })).geojson as Doc;
const line = (coordinates: Position[], title: string) => ({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { title } });
const point = (coordinates: Position, title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates }, properties: { title } });

/** Logs in as a new user with a map of these features, opens it with the tools on: the page, the canvas's box, the user's key and the map. */
async function editing(features: unknown[], viewport = { width: 1280, height: 800 }) {
  const user = await service.newUser();
  const map = await newMap(user.key, features);
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  await logIn(page, service.url, user.username);
  await page.goto(`${service.url}${map.path}?edit=1`);
  await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
  const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
  return { page, box, key: user.key, map, problems, close: () => context.close() };
}

/** Page coordinates of a fraction of the canvas, plus pixels. */
const at = (box: Box, fx: number, fy: number, dx = 0, dy = 0) => [box.x + box.width * fx + dx, box.y + box.height * fy + dy] as const;
/** Where the opened map shows WALK's ends: FIT_PADDING in from the canvas's sides, at mid-height. */
const walkEnds = (box: Box) => ({ west: [box.x + FIT_PADDING, box.y + box.height / 2] as const, east: [box.x + box.width - FIT_PADDING, box.y + box.height / 2] as const });

/** Web Mercator's y of a latitude, in degrees of longitude (as many pixels a degree as longitudes). */
const mercatorY = (lat: number) => (Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) * 180) / Math.PI;

const saveButton = (page: Page) => page.locator('.editor-toolbar button.save');
const readout = (page: Page) => page.locator('.drawing-readout');
const panelMeasure = (page: Page) => page.locator('.item-panel .measure');
/** The number in "Length: 1.23 km …" (in km or m as shown), in metres. */
function metres(text: string | null): number {
  const match = /(?:Length|Area): ([\d.,]+) (km|m)\b/.exec(text ?? '');
  if (!match) throw new Error(`no length in “${text}”`);
  return Number(match[1]!.replace(/,/g, '')) * (match[2] === 'km' ? 1000 : 1);
}

async function drag(page: Page, from: readonly [number, number], to: readonly [number, number], { release = true } = {}) {
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(from[0] + (to[0] - from[0]) / 2, from[1] + (to[1] - from[1]) / 2, { steps: 5 });
  await page.mouse.move(...to, { steps: 5 });
  if (release) await page.mouse.up();
}

async function saveAndWait(page: Page) {
  await saveButton(page).click();
  await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Saved.');
}

describe('measuring, snapping and shape edits in the map editor', () => {
  it('shows the length of a line and the area of an area while they are drawn', async () => {
    const { page, box, problems, close } = await editing([point([2, 48], 'South-west'), point([3, 49], 'North-east')]);
    await page.getByRole('button', { name: 'Draw a line' }).click();
    await page.mouse.click(...at(box, 0.3, 0.3));
    await page.mouse.move(...at(box, 0.45, 0.3), { steps: 4 });
    await expect.poll(() => readout(page).textContent()).toMatch(/^Length: [\d.,]+ km$/);
    expect(await readout(page).getAttribute('role')).toBe('status');
    const near = metres(await readout(page).textContent());
    await page.mouse.move(...at(box, 0.6, 0.35), { steps: 4 });
    await expect.poll(async () => metres(await readout(page).textContent())).toBeGreaterThan(near * 1.5);
    // A second vertex: the length goes on from it.
    await page.mouse.click(...at(box, 0.6, 0.35));
    await page.waitForTimeout(100);
    const far = metres(await readout(page).textContent());
    await page.mouse.move(...at(box, 0.7, 0.5), { steps: 4 });
    await expect.poll(async () => metres(await readout(page).textContent())).toBeGreaterThan(far);
    await page.screenshot({ path: `${SHOTS}/editor-measure-drawing.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    // Enter finishes the line (at its two clicked points): the readout goes, the item panel has it.
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    expect(await readout(page).textContent()).toBe('');
    expect(await readout(page).isVisible()).toBe(false);
    expect(await panelMeasure(page).textContent()).toMatch(/^Length: [\d.,]+ km /);
    await page.getByRole('button', { name: 'Done' }).click();

    // An area: its size so far.
    await page.getByRole('button', { name: 'Draw an area' }).click();
    await page.mouse.click(...at(box, 0.4, 0.6));
    await page.mouse.click(...at(box, 0.55, 0.6));
    await page.mouse.move(...at(box, 0.55, 0.8), { steps: 4 });
    await expect.poll(() => readout(page).textContent()).toMatch(/^Area: [\d.,]+ (ha|km²)$/);
    expect(problems).toEqual([]);
    await close();
  });

  it('shows the readout on a phone too, in feet and miles once chosen', async () => {
    const { page, box, close } = await editing([point([2, 48], 'South-west'), point([3, 49], 'North-east')], { width: 375, height: 740 });
    await page.evaluate(() => localStorage.setItem('map-units', 'imperial'));
    await page.reload();
    await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
    const phone = (await page.locator('.maplibregl-canvas').boundingBox())!;
    await page.getByRole('button', { name: 'Draw a line' }).click();
    await page.mouse.click(...at(phone, 0.2, 0.6));
    await page.mouse.move(...at(phone, 0.7, 0.75), { steps: 4 });
    await expect.poll(() => readout(page).textContent()).toMatch(/^Length: [\d.,]+ mi$/);
    await page.screenshot({ path: `${SHOTS}/editor-measure-drawing-375.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(box.width).toBeLessThan(375);
    await close();
  });

  it('updates the length while a vertex is dragged, counts the drag as an edit at once, undoes it with the handles, and saves while selected', async () => {
    // Coordinates of more decimals than the drawing takes (2.3400000000000003): editable all the same.
    const computed: Position[] = [
      [LON - 0.01, LAT],
      [LON + 0.01, LAT],
    ];
    const { page, box, key, map, problems, close } = await editing([line(computed, 'Walk')]);
    const { west, east } = walkEnds(box);
    // Selected by a click on the line; its length in the panel.
    await page.mouse.click(west[0] + 150, west[1]);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Walk');
    const before = metres(await panelMeasure(page).textContent());
    expect(before).toBeGreaterThan(1400);
    expect(before).toBeLessThan(1500);
    // The east end dragged 150 px down: the length grows while the button is still held.
    const dropped = [east[0], east[1] + 150] as const;
    await drag(page, east, dropped, { release: false });
    await expect.poll(async () => metres(await panelMeasure(page).textContent())).toBeGreaterThan(before + 20);
    expect(await saveButton(page).textContent()).toBe('Saved');
    await page.mouse.up();
    // Released: an edit at once, the item still selected.
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    expect(await saveButton(page).isEnabled()).toBe(true);
    const dragged = metres(await panelMeasure(page).textContent());

    // A midpoint dragged: one more vertex, one more undo step.
    const middle = [(west[0] + dropped[0]) / 2, (west[1] + dropped[1]) / 2] as const;
    await drag(page, middle, [middle[0], middle[1] - 200]);
    await expect.poll(async () => metres(await panelMeasure(page).textContent())).toBeGreaterThan(dragged + 50);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => metres(await panelMeasure(page).textContent())).toBe(dragged);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Walk');

    // Undone: the line is back where it was, still selected, its handles with it: the east end
    // is dragged again from its first place.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => metres(await panelMeasure(page).textContent())).toBe(before);
    await page.waitForTimeout(300); // the drawing is drawn again with the next frames
    await page.screenshot({ path: `${SHOTS}/editor-measure-undone.png` });
    await drag(page, east, [east[0], east[1] - 100]);
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    // Saved while still selected: the dragged line is what is stored.
    await saveAndWait(page);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Walk');
    const walk = (await documentOf(key, map.id)).features[0]!.geometry.coordinates as Position[];
    expect(walk).toHaveLength(2);
    expect(walk[0]![0]).toBeCloseTo(LON - 0.01, 9);
    expect(walk[0]![1]).toBe(LAT);
    expect(walk[1]![1]).toBeGreaterThan(LAT + 0.001); // dragged 100 px up: 0.0017° north
    expect(problems).toEqual([]);
    await close();
  });

  it('counts a dragged point as an edit at once and saves its new place, a new one too', async () => {
    // One point: the map opens on it, in the canvas's middle.
    const { page, box, key, map, close } = await editing([point([LON, LAT], 'Café')]);
    const centre = at(box, 0.5, 0.5);
    await page.mouse.click(...centre);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Café');
    await drag(page, centre, [centre[0] + 120, centre[1] - 60]);
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    await saveAndWait(page);
    const [lon, lat] = (await documentOf(key, map.id)).features[0]!.geometry.coordinates as Position;
    expect(lon).toBeGreaterThan(LON);
    expect(lat).toBeGreaterThan(LAT);

    // A new point saved while selected (it takes its saved id) is edited on: dragged, saved again.
    await page.getByRole('button', { name: 'Draw a point' }).click();
    const drawnAt = at(box, 0.3, 0.7);
    await page.mouse.click(...drawnAt);
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    await saveAndWait(page);
    await expect.poll(() => page.getByRole('heading', { name: 'Item', exact: true }).count()).toBe(1);
    const saved = (await documentOf(key, map.id)).features[1]!;
    await drag(page, drawnAt, [drawnAt[0] - 100, drawnAt[1]]);
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    await saveAndWait(page);
    const moved = (await documentOf(key, map.id)).features;
    expect(moved).toHaveLength(2);
    expect(moved[1]!.id).toBe(saved.id);
    expect((moved[1]!.geometry.coordinates as Position)[0]).toBeLessThan((saved.geometry.coordinates as Position)[0]);
    await close();
  });

  it('snaps a drawn line to a saved point (exactly) and to a saved line', async () => {
    // The point on the line, three quarters along it.
    const cafe: Position = [LON + 0.005, LAT];
    const { page, box, key, map, close } = await editing([line(WALK, 'Walk'), point(cafe, 'Café')]);
    const { west, east } = walkEnds(box);
    const cafeAt = [west[0] + (east[0] - west[0]) * 0.75, west[1]] as const;
    await page.getByRole('button', { name: 'Draw a line' }).click();
    // From below the line, a vertex 5 px from the café (snapped onto it), one 4 px below the
    // line's west half (snapped onto the line), finished by clicking the last one again.
    await page.mouse.click(...at(box, 0.5, 0.85));
    await page.mouse.move(cafeAt[0] + 4, cafeAt[1] + 3, { steps: 4 });
    await page.mouse.click(cafeAt[0] + 4, cafeAt[1] + 3);
    const onLine = [west[0] + 120, west[1] + 4] as const;
    await page.mouse.move(...onLine, { steps: 4 });
    await page.screenshot({ path: `${SHOTS}/editor-snapping.png` });
    await page.mouse.click(...onLine);
    await page.mouse.click(...onLine);
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    await saveAndWait(page);
    const drawn = (await documentOf(key, map.id)).features.find((feature) => feature.properties.title === undefined)!;
    const [, second, third] = drawn.geometry.coordinates as Position[];
    expect(second).toEqual(cafe);
    expect(third![1]).toBeCloseTo(LAT, 9);
    expect(third![0]).toBeGreaterThan(WALK[0]![0]);
    expect(third![0]).toBeLessThan(LON);
    await close();
  });

  it('extends a line from its end (Ctrl-click, Extend line) as the same item, one undo step each', async () => {
    const { page, box, key, map, problems, close } = await editing([line(WALK, 'Walk')]);
    const { west, east } = walkEnds(box);
    await page.mouse.click(west[0] + 150, west[1]);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Walk');
    const before = metres(await panelMeasure(page).textContent());
    // Ctrl-click on the east end, then two points, the last clicked again to finish.
    await page.keyboard.down('Control');
    await page.mouse.click(...east);
    await page.keyboard.up('Control');
    await page.mouse.move(east[0] - 100, east[1] - 150, { steps: 4 });
    // While drawing on, the readout has the whole line's length.
    await expect.poll(async () => metres(await readout(page).textContent())).toBeGreaterThan(before);
    await page.mouse.click(east[0] - 100, east[1] - 150);
    await page.mouse.click(east[0] - 250, east[1] - 150);
    await page.mouse.click(east[0] - 250, east[1] - 150);
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Walk');
    await expect.poll(async () => metres(await panelMeasure(page).textContent())).toBeGreaterThan(before + 500);
    await page.screenshot({ path: `${SHOTS}/editor-extended.png` });
    // The button draws on from the last point; Escape finishes.
    await page.getByRole('button', { name: 'Extend line' }).click();
    await page.mouse.click(east[0] - 400, east[1] - 50);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await page.getByLabel('Title', { exact: true }).count()) === 1 && metres(await panelMeasure(page).textContent())).toBeGreaterThan(before + 700);
    await saveAndWait(page);
    let walk = (await documentOf(key, map.id)).features;
    expect(walk).toHaveLength(1);
    expect(walk[0]!.properties.title).toBe('Walk');
    const extended = walk[0]!.geometry.coordinates as Position[];
    expect(extended).toHaveLength(5);
    expect(extended.slice(0, 2)).toEqual(WALK);
    // Undo takes one extension back.
    await page.keyboard.press('Control+z');
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    await saveAndWait(page);
    walk = (await documentOf(key, map.id)).features;
    expect(walk[0]!.geometry.coordinates).toEqual(extended.slice(0, 4));
    expect(problems).toEqual([]);
    await close();
  });

  it('deletes a vertex with a right-click', async () => {
    const bent: Position[] = [WALK[0]!, [LON, LAT + 0.004], WALK[1]!];
    const { page, box, key, map, close } = await editing([line(bent, 'Bent')]);
    const { west, east } = walkEnds(box);
    // The map frames the bent line across its width: the ends below the middle, the bend above.
    const rise = (mercatorY(LAT + 0.004) - mercatorY(LAT)) * ((east[0] - west[0]) / 0.02);
    const bend = [box.x + box.width / 2, box.y + box.height / 2 - rise / 2] as const;
    await page.mouse.click((west[0] + bend[0]) / 2, (west[1] + rise / 2 + bend[1]) / 2);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Bent');
    const before = metres(await panelMeasure(page).textContent());
    await page.mouse.click(...bend, { button: 'right' });
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    await expect.poll(async () => metres(await panelMeasure(page).textContent())).toBeLessThan(before);
    await saveAndWait(page);
    expect((await documentOf(key, map.id)).features[0]!.geometry.coordinates).toEqual([WALK[0], WALK[1]]);
    await close();
  });
});
