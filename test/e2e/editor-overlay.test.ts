// The editor's Overlay tool in Chromium (issue 27, item 2): an image chosen with the toolbar's
// Overlay becomes an overlay in the middle of the view at the image's aspect ratio; its panel's
// opacity slider, Turn and Bigger buttons (by keyboard) and a corner dragged by its handle each
// make one undoable edit; what is saved reads back through map/get as a valid overlay with its
// corners where they were put. axe-core with the panel open at 1280 and 375 pixels.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, reachButton, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Corner = [number, number];
type Feature = { id: number; geometry: { type: string; coordinates: Corner[][] }; properties: Record<string, unknown> };

const OVERLAY_BUTTON = 'Add an image overlay: a scanned map or a plan laid on the map';
const mercator = ([lon, lat]: Corner): Corner => [lon / 360, Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI)];
/** The angle of the edge from corner a to corner b on the map's plane, in degrees (counter-clockwise from east). */
const angle = (a: Corner, b: Corner) => {
  const [[ax, ay], [bx, by]] = [mercator(a), mercator(b)];
  return (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
};
const length = (a: Corner, b: Corner) => {
  const [[ax, ay], [bx, by]] = [mercator(a), mercator(b)];
  return Math.hypot(bx - ax, by - ay);
};

async function openNewMap(page: Page, key: string): Promise<number> {
  const features = [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'South-west' } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [3.0, 49.0] }, properties: { title: 'North-east' } },
  ];
  const map = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private', title: 'Overlay' }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(map.error).toBeUndefined();
  await page.goto(`${service.url}${new URL(map.url as string).pathname}?edit=1`);
  await page.locator('figure.map-view[data-map-drawn]').waitFor({ timeout: 30_000 });
  await expect.poll(() => page.getByRole('button', { name: 'Draw a point' }).isVisible(), { timeout: 20_000 }).toBe(true);
  return map.id as number;
}

const saveButton = (page: Page) => page.locator('.editor-toolbar button.save');
const status = (page: Page) => page.locator('.editor-status');
async function save(page: Page): Promise<void> {
  await saveButton(page).click();
  await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe('Saved.');
}
async function overlayOf(key: string, id: number): Promise<Feature> {
  const features = (await service.call('map/get', key, { map_id: id })).geojson.features as Feature[];
  const overlays = features.filter((feature) => feature.properties.overlay === true);
  expect(overlays).toHaveLength(1);
  return overlays[0]!;
}
const cornersOf = (feature: Feature) => {
  const ring = feature.geometry.coordinates[0]!;
  expect(feature.geometry.type).toBe('Polygon');
  expect(ring).toHaveLength(5);
  expect(ring[4]).toEqual(ring[0]);
  return ring.slice(0, 4);
};

/** Drags the handle of corner `index` (0 lower-left … 3 upper-left) by [dx, dy] pixels. */
async function dragCorner(page: Page, index: number, [dx, dy]: [number, number]): Promise<void> {
  const handle = page.locator('.overlay-handle').nth(index);
  const box = (await handle.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

describe('the Overlay tool in the editor in Chromium', () => {
  it('adds an overlay from a file, adjusts its opacity, turn, size and a corner, undoes once, and saves a valid overlay', async () => {
    const user = await service.newUser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await logIn(page, service.url, user.username);
    const id = await openNewMap(page, user.key);

    // A 400 × 200 image: the overlay is twice as wide as high, in the middle of the view.
    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ff00ff' } }).png().toBuffer();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), (await reachButton(page, OVERLAY_BUTTON)).click()]);
    await chooser.setFiles({ name: 'Old survey.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toContain('“Old survey” added as an overlay');
    await expect.poll(() => page.getByRole('heading', { name: 'New image overlay' }).count()).toBe(1);
    await expect.poll(() => page.locator('.overlay-handle').count()).toBe(4);
    expect(await saveButton(page).textContent()).toBe('Save (1)');
    await save(page);
    const placed = cornersOf(await overlayOf(user.key, id));
    // Upright, 2:1 on the map's plane, around the view's middle (the map is framed on 2–3° E, 48–49° N).
    expect(Math.abs(angle(placed[0]!, placed[1]!))).toBeLessThan(0.01);
    expect(length(placed[0]!, placed[1]!) / length(placed[1]!, placed[2]!)).toBeCloseTo(2, 2);
    const middle = [(placed[0]![0] + placed[2]![0]) / 2, (placed[0]![1] + placed[2]![1]) / 2];
    expect(Math.abs(middle[0]! - 2.5)).toBeLessThan(0.2);
    expect(Math.abs(middle[1]! - 48.5)).toBeLessThan(0.3);
    await expect.poll(() => page.getByRole('heading', { name: 'Image overlay' }).count()).toBe(1);

    // Opacity by keyboard: 100 % → 40 % (steps of 5 %).
    const slider = page.getByRole('slider', { name: /^Opacity/ });
    await slider.focus();
    for (let i = 0; i < 12; i++) await slider.press('ArrowLeft');
    await expect.poll(() => page.locator('#overlay-opacity-value').textContent()).toBe('40 %');
    // Turned 5° to the right and made bigger, by keyboard.
    await page.getByRole('button', { name: 'Turn 5° right' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bigger', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/editor-overlay-1280.png` });
    await save(page);
    const adjusted = await overlayOf(user.key, id);
    expect(adjusted.properties.opacity).toBe(0.4);
    const turned = cornersOf(adjusted);
    // Clockwise by 5°, a tenth bigger, about the same middle.
    expect(angle(turned[0]!, turned[1]!)).toBeCloseTo(-5, 1);
    expect(length(turned[0]!, turned[2]!) / length(placed[0]!, placed[2]!)).toBeCloseTo(1.1, 3);
    expect((turned[0]![0] + turned[2]![0]) / 2).toBeCloseTo(middle[0]!, 5);

    // Corners dragged: the lower-right one 60 px right and 40 px down, then the lower-left one 40 px left and 30 px down; undo takes the last drag back.
    await expect.poll(() => page.locator('.overlay-handle').count()).toBe(4);
    await dragCorner(page, 1, [60, 40]);
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');
    const lowerLeft = (await page.locator('.overlay-handle').nth(0).boundingBox())!;
    await dragCorner(page, 0, [-40, 30]);
    await expect.poll(async () => (await page.locator('.overlay-handle').nth(0).boundingBox())!.x).toBeLessThan(lowerLeft.x - 30);
    await (await reachButton(page, 'Undo (Ctrl+Z)')).click();
    await save(page);
    const saved = await overlayOf(user.key, id);
    expect(saved.properties).toMatchObject({ overlay: true, opacity: 0.4, title: 'Old survey' });
    expect(saved.properties.image).toMatchObject({ w: 400, h: 200 });
    const dragged = cornersOf(saved);
    expect(dragged[0]).toEqual(turned[0]); // its drag undone
    expect(dragged[2]).toEqual(turned[2]);
    expect(dragged[3]).toEqual(turned[3]);
    expect(dragged[1]![0]).toBeGreaterThan(turned[1]![0] + 0.01); // east
    expect(dragged[1]![1]).toBeLessThan(turned[1]![1] - 0.01); // south

    // On a phone: Overlay is in More, Area stays in the row; the panel is axe-clean there too.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.getByRole('button', { name: /^Draw an area/ }).isVisible()).toBe(true);
    const folded = await reachButton(page, OVERLAY_BUTTON);
    expect(await folded.getAttribute('role')).toBe('menuitem');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('slider', { name: /^Opacity/ }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/editor-overlay-375.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
