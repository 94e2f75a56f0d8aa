// The map editor in Chromium: draw a point, a line and an area, name and colour them, undo and
// redo, save, read them back through map/get; edit a line's vertex; two people editing the same
// map (a merge, then a conflict settled); a tall map on a phone framed below the toolbar; who gets
// the editing tools. Screenshots in test/e2e/screenshots/, axe-core on the editor.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, pixelsNear, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Doc = { features: { id: number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[] };

async function loggedIn(username: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await logIn(page, service.url, username);
  return { context, page };
}

async function openMap(page: Page, path: string, { edit = false } = {}): Promise<{ x: number; y: number; width: number; height: number }> {
  await page.goto(`${service.url}${path}`);
  await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
  if (edit) await page.getByRole('button', { name: 'Edit map' }).click();
  await page.waitForTimeout(500);
  return (await page.locator('.maplibregl-canvas').boundingBox())!;
}

const documentOf = async (key: string, id: number) => (await service.call('map/get', key, { map_id: id })).geojson as Doc;
const saveButton = (page: Page) => page.locator('.editor-toolbar button.save');
/** The colour lines are drawn in when they have none of their own (web/app/mapAdapter.ts). */
const LINE_COLOR = [0x2f, 0x6f, 0xd6] as const;

async function newMap(key: string, features: unknown[] = []) {
  const map = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Drawn' }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(map.error).toBeUndefined();
  return { id: map.id as number, path: new URL(map.url as string).pathname };
}

describe('the map editor in Chromium', () => {
  it('draws a point, a line and an area, names and colours them, undoes and redoes, and saves them', async () => {
    const user = await service.newUser();
    // Two far points frame the map, so the drawing happens in its middle.
    const map = await newMap(user.key, [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'South-west' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [3.0, 49.0] }, properties: { title: 'North-east' } },
    ]);
    const { context, page } = await loggedIn(user.username);
    const box = await openMap(page, map.path);
    // The owner sees the map as visitors do until Edit map: a click opens the popup.
    expect(await page.getByRole('button', { name: 'Draw a point' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Edit map' }).click();
    const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;

    // A point, named.
    await page.getByRole('button', { name: 'Draw a point' }).click();
    await page.mouse.click(...at(0.35, 0.5)); // inside the two points' frame: reopened, the map is framed the same
    await expect.poll(() => page.getByLabel('Title', { exact: true }).count()).toBe(1);
    await page.getByLabel('Title', { exact: true }).fill('Picnic');
    await page.getByLabel('Title', { exact: true }).press('Tab');
    await page.getByLabel('Web link').fill('https://example.org/picnic');
    await page.getByLabel('Web link').press('Tab');
    // The icon picker shows the built-in icons; one is chosen by a click.
    await page.locator('#item-icon').click();
    await expect.poll(() => page.locator('#icon-grid button').count()).toBeGreaterThan(200);
    await page.getByLabel(/^Search icons/).fill('picnic');
    await page.getByRole('button', { name: 'picnic-site', exact: true }).click();
    await page.getByRole('button', { name: 'Colour #e7298a' }).click();
    await page.getByRole('button', { name: 'Done' }).click();

    /** Draws with a tool, clicking at each place and then at `finishAt`, and names the new item. */
    const drawAndName = async (tool: RegExp, places: (readonly [number, number])[], finishAt: readonly [number, number], title: string) => {
      await page.getByRole('button', { name: tool }).click();
      for (const [fx, fy] of places) {
        await page.mouse.click(...at(fx, fy));
        await page.waitForTimeout(150);
      }
      await page.mouse.click(...at(...finishAt));
      await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
      await page.getByLabel('Title', { exact: true }).fill(title);
      await page.getByLabel('Title', { exact: true }).press('Tab');
      await page.getByRole('button', { name: 'Done' }).click();
    };
    // A line: three clicks, the last one again to finish; an area: four corners, then the first again.
    await drawAndName(/Draw a line/, [[0.4, 0.3], [0.5, 0.35], [0.6, 0.3]], [0.6, 0.3], 'Walk');
    await drawAndName(/Draw an area/, [[0.45, 0.6], [0.6, 0.6], [0.6, 0.75], [0.45, 0.75]], [0.45, 0.6], 'Meadow');
    await page.waitForTimeout(300); // the drawing's handles leave with the next frame
    await page.screenshot({ path: `${SHOTS}/editor-drawn.png` });
    expect(await accessibilityViolations(page)).toEqual([]);

    // Undo takes the area's name back, then the area; redo brings both back.
    expect(await saveButton(page).textContent()).toBe('Save (3)');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    expect(await saveButton(page).textContent()).toBe('Save (2)');
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Control+Shift+z');
    expect(await saveButton(page).textContent()).toBe('Save (3)');

    await saveButton(page).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Saved.');
    expect(await saveButton(page).textContent()).toBe('Saved');
    // The item list beside the map has them too.
    for (const title of ['Picnic', 'Walk', 'Meadow']) await expect.poll(() => page.getByRole('button', { name: title, exact: true }).count()).toBe(1);
    const doc = await documentOf(user.key, map.id);
    const byTitle = Object.fromEntries(doc.features.map((f) => [f.properties.title, f]));
    expect(byTitle.Picnic).toMatchObject({ geometry: { type: 'Point' }, properties: { color: '#e7298a', url: 'https://example.org/picnic', 'marker-symbol': 'picnic-site' } });
    expect(byTitle.Walk?.geometry.type).toBe('LineString');
    expect((byTitle.Walk?.geometry.coordinates as unknown[]).length).toBe(3);
    expect(byTitle.Meadow?.geometry.type).toBe('Polygon');
    expect((byTitle.Meadow?.geometry.coordinates as unknown[][])[0]!.length).toBe(5);
    // The point is where it was clicked: left of the middle of the framed area, at mid-height.
    const [lon, lat] = byTitle.Picnic!.geometry.coordinates as [number, number];
    expect(lon).toBeGreaterThan(1.5);
    expect(lon).toBeLessThan(2.5);
    expect(lat).toBeGreaterThan(48.3);
    expect(lat).toBeLessThan(48.7);

    // Reloaded, the map is framed as before (same content bounds): the line is where it was
    // drawn. A click on it selects it; its middle vertex dragged down and saved.
    await openMap(page, map.path, { edit: true });
    await page.mouse.click(...at(0.45, 0.325));
    await expect.poll(() => page.getByRole('heading', { name: 'Item', exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Walk');
    // Its length, in the viewer's units (remembered).
    expect(await page.locator('.item-panel .measure').textContent()).toMatch(/^Length: [\d.,]+ km in feet and miles$/);
    await page.getByRole('button', { name: 'in feet and miles' }).click();
    expect(await page.locator('.item-panel .measure').textContent()).toMatch(/^Length: [\d.,]+ mi in metres and kilometres$/);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/editor-line-selected.png` });
    // The selected line has a clear halo: the amber of Box selection's outline, along its length.
    const canvasBox = (await page.locator('.maplibregl-canvas').boundingBox())!;
    expect(await pixelsNear(page, canvasBox, [0xff, 0xc4, 0x00])).toBeGreaterThan(300);
    const walk = byTitle.Walk!.geometry.coordinates as [number, number][];
    const [vx, vy] = at(0.5, 0.35);
    await page.mouse.move(vx, vy);
    await page.mouse.down();
    await page.mouse.move(vx, vy + 20, { steps: 5 });
    await page.mouse.move(vx, vy + 40, { steps: 5 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await saveButton(page).textContent()).toBe('Save (1)');
    await saveButton(page).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Saved.');
    const edited = (await documentOf(user.key, map.id)).features.find((f) => f.properties.title === 'Walk')!.geometry.coordinates as [number, number][];
    expect(edited).toHaveLength(3);
    expect(edited[0]).toEqual(walk[0]);
    expect(edited[1]![1]).toBeLessThan(walk[1]![1] - 0.001); // dragged down: south
    await context.close();
  });

  it('merges two people editing the same map, and lets the second settle a conflict', async () => {
    const owner = await service.newUser();
    const map = await newMap(owner.key, [
      { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'Shared' } },
      { type: 'Feature', id: 2, geometry: { type: 'Point', coordinates: [3.0, 49.0] }, properties: { title: 'Other' } },
    ]);
    const first = await loggedIn(owner.username);
    const second = await loggedIn(owner.username);
    await openMap(first.page, map.path, { edit: true });
    await openMap(second.page, map.path, { edit: true });
    const rename = async (page: Page, item: string, title: string) => {
      await page.getByRole('button', { name: item, exact: true }).click();
      await page.getByLabel('Title', { exact: true }).fill(title);
      await page.getByLabel('Title', { exact: true }).press('Tab');
      await page.getByRole('button', { name: 'Done' }).click();
      await saveButton(page).click();
    };
    // Different items: both saves land.
    await rename(first.page, 'Other', 'Other (first)');
    await expect.poll(() => first.page.locator('.editor-status').textContent()).toBe('Saved.');
    await rename(second.page, 'Shared', 'Shared (second)');
    await expect.poll(() => second.page.locator('.editor-status').textContent()).toBe('Saved.');
    expect((await documentOf(owner.key, map.id)).features.map((f) => f.properties.title)).toEqual(['Shared (second)', 'Other (first)']);
    // The same item: the first tab, still on its old version of 'Shared', gets a conflict and keeps its own.
    await rename(first.page, 'Shared', 'Shared (first)');
    await expect.poll(() => first.page.locator('.editor-status').textContent()).toContain('Someone else changed something you changed');
    await first.page.screenshot({ path: `${SHOTS}/editor-conflict.png` });
    expect((await documentOf(owner.key, map.id)).features[0]!.properties.title).toBe('Shared (second)');
    await first.page.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(() => first.page.locator('.editor-status').textContent()).toBe('Saved.');
    expect((await documentOf(owner.key, map.id)).features.map((f) => f.properties.title)).toEqual(['Shared (first)', 'Other (first)']);
    await first.context.close();
    await second.context.close();
  });

  it('makes a new map from My maps, which opens with the editing tools on', async () => {
    const user = await service.newUser();
    const { context, page } = await loggedIn(user.username);
    await page.goto(`${service.url}/maps`);
    await page.getByLabel('Title of a new map').fill('Sketch');
    await page.getByRole('button', { name: 'New map' }).click();
    await page.waitForURL(`${service.url}/${user.username}/sketch?edit=1`);
    await expect.poll(() => page.getByRole('button', { name: 'Draw a point' }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByRole('button', { name: 'Stop editing' }).getAttribute('aria-pressed')).toBe('true');
    // The empty map says so until something is drawn; the list then counts it.
    expect(await page.getByText('This map has no items yet.').isVisible()).toBe(true);
    const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
    await page.getByRole('button', { name: 'Draw a point' }).click();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => page.getByText('This map has no items yet.').isVisible()).toBe(false);
    expect(await page.locator('[data-items-count]').textContent()).toBe('(1)');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByText('This map has no items yet.').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-new-map.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    // On a phone: the toolbar in one row inside the map (More for the rest), nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/editor-new-map-375.png`, fullPage: true });
    await context.close();
  });

  it('frames a tall map’s items below the toolbar on a phone, when it opens and when Edit map shows the tools, but not once moved', async () => {
    const user = await service.newUser();
    // A north–south line: the map opens fitted to its height, its north end near the top edge.
    const map = await newMap(user.key, [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [[2.35, 48.8], [2.35, 48.95]] }, properties: { title: 'North–south' } }]);
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await logIn(page, service.url, user.username);
    const drawnAt = async (path: string) => {
      await page.goto(`${service.url}${path}`);
      await page.waitForSelector('figure[data-map-drawn]', { state: 'attached', timeout: 30_000 });
      return (await page.locator('.maplibregl-canvas').boundingBox())!;
    };
    const toolbarBottom = async () => {
      const bar = (await page.locator('.map-bar').boundingBox())!;
      return bar.y + bar.height;
    };
    /** The line's pixels in a 12-pixel-wide strip at x, from y down `height` pixels. */
    const lineAt = (x: number, y: number, height: number) => pixelsNear(page, { x: x - 6, y, width: 12, height }, LINE_COLOR);
    const linesEnd = async (x: number) => {
      const below = await toolbarBottom();
      return { justBelowToolbar: await lineAt(x, below + 4, 12), furtherDown: await lineAt(x, below + 40, 40) };
    };

    // Opened with the tools on: the toolbar (one row, below Find a place) covers the map's top, and the line starts below it.
    let box = await drawnAt(`${map.path}?edit=1`);
    expect(await toolbarBottom()).toBeGreaterThan(box.y + 70);
    const opened = await linesEnd(box.x + box.width / 2);
    expect(opened.justBelowToolbar).toBe(0);
    expect(opened.furtherDown).toBeGreaterThan(40);
    await page.screenshot({ path: `${SHOTS}/editor-tall-map-375.png` });

    // Opened without them, then Edit map: the tools' rows push the line's end down with them.
    box = await drawnAt(map.path);
    await page.getByRole('button', { name: 'Edit map' }).click();
    await expect.poll(async () => (await linesEnd(box.x + box.width / 2)).justBelowToolbar, { timeout: 5_000 }).toBe(0);
    expect((await linesEnd(box.x + box.width / 2)).furtherDown).toBeGreaterThan(40);

    // Moved first (dragged 80 pixels east): Edit map leaves the map where the person put it.
    box = await drawnAt(map.path);
    const middle = [box.x + box.width / 2, box.y + box.height * 0.75] as const;
    await page.mouse.move(...middle);
    await page.mouse.down();
    await page.mouse.move(middle[0] + 80, middle[1], { steps: 8 });
    await page.waitForTimeout(300); // held still before letting go: no inertia carries the map further
    await page.mouse.up();
    await page.getByRole('button', { name: 'Edit map' }).click();
    const lowHalf = box.y + box.height * 0.55;
    expect(await lineAt(middle[0] + 80, lowHalf, 60), 'the line where it was dragged').toBeGreaterThan(60);
    expect(await lineAt(middle[0], lowHalf, 60), 'the line where it was before').toBe(0);
    await context.close();
  });

  it('shows no editing tools to a viewer, and to an editor only while collaboration is on', async () => {
    const owner = await service.newUser();
    const editor = await service.newUser();
    const map = await newMap(owner.key, [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Here' } }]);
    const visitor = await loggedIn(editor.username);
    await openMap(visitor.page, map.path);
    expect(await visitor.page.getByRole('toolbar', { name: 'Map editing' }).count()).toBe(0);
    await service.db('map_members').insert({ map_id: map.id, user_id: editor.userId, role: 'editor' });
    await service.db('maps').where({ id: map.id }).update({ collaborate: true });
    await openMap(visitor.page, map.path);
    expect(await visitor.page.getByRole('toolbar', { name: 'Map editing' }).count()).toBe(1);
    await service.db('maps').where({ id: map.id }).update({ collaborate: false });
    await openMap(visitor.page, map.path);
    expect(await visitor.page.getByRole('toolbar', { name: 'Map editing' }).count()).toBe(0);
    await visitor.context.close();
  });
});
