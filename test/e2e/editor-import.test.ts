// The editor's Import in Chromium: a KMZ into a new group and a CSV with a bad row, chosen in the
// dialog, sent, summarised (items imported, rows skipped with their reasons), then shown on the
// reloaded map and read back through map/get; with unsaved changes nothing is sent. Screenshots
// of the dialog and the summary at 1280 and 375 pixels; axe-core on the open dialog.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { holidayKmz, PLACES_CSV } from '../support/importSamples.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, reachButton, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Doc = { groups?: { id: number; title: string; parent?: number }[]; features: { id: number; geometry: { type: string }; properties: Record<string, unknown> }[] };

async function loggedIn(username: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(error));
  await logIn(page, service.url, username);
  return page;
}

/** The map page with the editing tools on (?edit=1), once its map is drawn. */
async function openMap(page: Page, path: string): Promise<void> {
  await page.goto(`${service.url}${path}?edit=1`);
  await mapReady(page);
}

async function mapReady(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => page.locator('.editor-toolbar button.save').isVisible(), { timeout: 20_000 }).toBe(true);
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Import a file' });

/** Opens the Import dialog and chooses the file. */
async function chooseFile(page: Page, name: string, bytes: Uint8Array | string): Promise<void> {
  await (await reachButton(page, 'Import a file into this map')).click();
  await expect.poll(() => dialog(page).isVisible()).toBe(true);
  await page.getByLabel('File', { exact: true }).setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
}

describe('importing files from the editor in Chromium', () => {
  it('imports a KMZ into a new group and a CSV with a bad row, shows the summaries and then the items', async () => {
    const user = await service.newUser();
    const created = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'private', title: 'Imported' }, JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Already here' } }],
    }));
    const mapId = created.id as number;
    const path = new URL(created.url as string).pathname;
    const page = await loggedIn(user.username);
    await openMap(page, path);

    // A KMZ, into a new group: the title starts as the file's name and is changed.
    await chooseFile(page, 'holiday.kmz', holidayKmz());
    await page.getByLabel('Put into a new group').check();
    expect(await page.getByLabel('Title of the new group').inputValue()).toBe('holiday');
    await page.getByLabel('Title of the new group').fill('Beach trip');
    await page.screenshot({ path: `${SHOTS}/editor-import-dialog.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    // While it runs (the service's answer held back here for a moment): a progress bar, its buttons
    // disabled and looking it (issue 26, defect 6).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/import', async (route) => {
      await held;
      await route.continue();
    });
    await dialog(page).getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => page.locator('.import-progress').isVisible()).toBe(true);
    for (const name of ['Import', 'Cancel']) {
      const button = dialog(page).getByRole('button', { name, exact: true });
      expect(await button.isDisabled()).toBe(true);
      expect(await button.evaluate((node) => getComputedStyle(node).opacity)).toBe('0.5');
    }
    expect(await page.locator('.import-status').textContent()).toMatch(/^(Sending “holiday\.kmz”|Importing “holiday\.kmz”)/);
    await page.screenshot({ path: `${SHOTS}/editor-import-running.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    release(); // this import and the later ones go through at once from now on
    await expect.poll(() => page.locator('.import-count').textContent(), { timeout: 30_000 }).toBe('6 items imported from a KMZ file into the new group “Beach trip”.');
    expect(await page.locator('.import-progress').isVisible()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/editor-import-summary.png` });

    // Show on the map: the page again, with the new items in the map and the list.
    await Promise.all([page.waitForEvent('load'), dialog(page).getByRole('button', { name: 'Show on the map' }).click()]);
    expect(new URL(page.url()).searchParams.get('edit')).toBe('1');
    await mapReady(page);
    await expect.poll(() => page.getByRole('button', { name: 'Sunset point', exact: true }).count()).toBe(1);
    expect(await page.locator('.item-list').textContent()).toContain('Beach trip');
    await page.waitForTimeout(500); // the map's markers settle
    await page.screenshot({ path: `${SHOTS}/editor-import-done.png` });

    // A CSV at phone width: three rows in, one skipped with its reason.
    await page.setViewportSize({ width: 375, height: 740 });
    await chooseFile(page, 'places.csv', PLACES_CSV);
    await page.screenshot({ path: `${SHOTS}/editor-import-dialog-375.png` });
    await dialog(page).getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => page.locator('.import-count').textContent(), { timeout: 30_000 }).toBe('3 items imported from a CSV file.');
    const skipped = await page.locator('.import-skipped li').allTextContents();
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toContain('row 4 skipped: latitude "abc"');
    await page.screenshot({ path: `${SHOTS}/editor-import-summary-375.png` });
    // Escape closes the summary as Show on the map does.
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Escape')]);
    await mapReady(page);
    await expect.poll(() => page.getByRole('button', { name: 'London', exact: true }).count()).toBe(1);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // Read back through the API: the map's item, the KMZ's six in their group, the CSV's three.
    const doc = (await service.call('map/get', user.key, { map_id: mapId })).geojson as Doc;
    expect(doc.features).toHaveLength(1 + 6 + 3);
    const group = (title: string) => doc.groups!.find((each) => each.title === title)!;
    const kmzItems = doc.features.slice(1, 7);
    expect(kmzItems.every((feature) => feature.properties.group === group('Beach trip').id)).toBe(true);
    expect(kmzItems.map((feature) => feature.properties.title)).toContain('Sunset point');
    const paris = doc.features.find((feature) => feature.properties.title === 'Paris')!;
    expect(paris.properties.group).toBe(group('France').id);
  });

  it('asks for a save first when the editor has unsaved changes, and sends nothing', async () => {
    const user = await service.newUser();
    const created = await service.send('map/upload', user.key, { file_type: 'empty', visibility: 'private', title: 'Unsaved' });
    const page = await loggedIn(user.username);
    await openMap(page, new URL(created.url as string).pathname);
    // One unsaved point.
    await page.getByRole('button', { name: 'Draw a point' }).click();
    const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => page.locator('.editor-toolbar button.save').textContent()).toBe('Save (1)');
    await page.getByRole('button', { name: 'Done' }).click();

    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/import')) sent.push(request.url());
    });
    await chooseFile(page, 'places.csv', PLACES_CSV);
    expect(await page.locator('.import-status').textContent()).toContain('Save your changes first');
    await dialog(page).getByRole('button', { name: 'Import' }).click();
    await page.waitForTimeout(500);
    expect(await page.locator('.import-status').textContent()).toContain('Save your changes first');
    expect(sent).toEqual([]);
    expect((await service.call('map/get', user.key, { map_id: created.id })).geojson.features).toEqual([]);
  });
});
