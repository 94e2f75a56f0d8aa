// The map settings section in Chromium: the owner opens it from the map page, changes the title,
// the visibility and the editors, and saves (a plain form post, no script needed); the editor
// named then edits the map, and once the owner turns collaboration off, sees no Edit map button
// and has a save refused. A refused field is shown next to it. Screenshots at 1280 and 375 px
// wide in test/e2e/screenshots/, axe-core on the section.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

async function loggedIn(username: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await logIn(page, service.url, username);
  return { context, page, errors };
}

/** Opens a map page and waits for the interactive map. */
async function openMap(page: Page, path: string): Promise<void> {
  await page.goto(`${service.url}${path}`);
  await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
  await page.waitForTimeout(300);
}

const settings = (page: Page) => page.locator('#map-settings');

/** A picture of the whole section: on a wide screen the side panel scrolls, so its height limit is lifted for the picture. */
async function wholeSection(page: Page, path: string): Promise<void> {
  await page.evaluate(() => document.querySelector<HTMLElement>('.side-panel')!.style.setProperty('max-height', 'none'));
  await settings(page).screenshot({ path });
  await page.evaluate(() => document.querySelector<HTMLElement>('.side-panel')!.style.removeProperty('max-height'));
}

describe('map settings in Chromium', () => {
  it('lets the owner change title, visibility and editors; the editor edits until collaboration is turned off', async () => {
    const owner = await service.newUser();
    const editor = await service.newUser();
    const made = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'private', title: 'Swimming spots' }, JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [8.5, 47.3] }, properties: { title: 'Lake beach' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [8.9, 47.1] }, properties: { title: 'River pool' } },
      ],
    }));
    expect(made.error).toBeUndefined();
    const mapId = made.id as number;
    const oldPath = new URL(made.url as string).pathname;

    // The owner opens Map settings from the map page.
    const own = await loggedIn(owner.username);
    await openMap(own.page, oldPath);
    await own.page.getByRole('link', { name: 'Map settings' }).click();
    await expect.poll(() => settings(own.page).isVisible()).toBe(true);
    expect(await own.page.getByLabel('Title', { exact: true }).inputValue()).toBe('Swimming spots');
    expect(await own.page.getByLabel('Private', { exact: true }).isChecked()).toBe(true);

    // A name that is nobody's is refused next to the field, with everything typed kept.
    await own.page.getByLabel('Title', { exact: true }).fill('Where we swim');
    await own.page.getByLabel('Unlisted', { exact: true }).check();
    await own.page.getByLabel(/^Collaboration/).check();
    await own.page.getByLabel('Editors', { exact: true }).fill(`${editor.username}, nobody-at-all-xyz`);
    await own.page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => own.page.locator('#settings-editors-error').textContent()).toBe('There is no user named "nobody-at-all-xyz".');
    expect(await own.page.getByLabel('Title', { exact: true }).inputValue()).toBe('Where we swim');
    expect(await own.page.getByLabel('Unlisted', { exact: true }).isChecked()).toBe(true);
    expect(await own.page.getByLabel('Editors', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await wholeSection(own.page, `${SHOTS}/map-settings-refused.png`);
    expect((await service.call('map/get', owner.key, { map_id: mapId })).title).toBe('Swimming spots');

    // Corrected and saved: the page comes back at the map's new address with a notice.
    await own.page.getByLabel('Short name').fill('where-we-swim');
    await own.page.getByLabel('Editors', { exact: true }).fill(editor.username);
    await own.page.getByRole('button', { name: 'Save settings' }).click();
    // Unlisted now: the map's address carries its link key.
    await own.page.waitForURL(new RegExp(`/${owner.username}/where-we-swim~[A-Z]{22}\\?settings=saved#map-settings$`));
    const path = new URL(own.page.url()).pathname;
    await expect.poll(() => own.page.getByRole('status').filter({ hasText: 'Settings saved.' }).count()).toBe(1);
    expect(await own.page.getByRole('heading', { level: 1 }).textContent()).toBe('Where we swim');
    expect(await service.call('map/get', owner.key, { map_id: mapId })).toMatchObject({
      url: `${service.url}${path}`,
      title: 'Where we swim',
      short_name: 'where-we-swim',
      visibility: 'unlisted',
      collaborate: true,
      editor_users: [editor.username],
    });
    expect((await service.call('map/list', editor.key, {})).editor.map((m: { id: number }) => m.id)).toContain(mapId);
    await expect.poll(() => own.page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
    // The map drawn with its items (web/app/main.ts marks the figure), for the screenshot to look at.
    await own.page.locator('.map-view[data-map-drawn]').waitFor({ timeout: 20_000 });
    await own.page.waitForTimeout(500);
    await own.page.screenshot({ path: `${SHOTS}/map-settings-1280.png` });
    await wholeSection(own.page, `${SHOTS}/map-settings-section-1280.png`);
    expect(await accessibilityViolations(own.page)).toEqual([]);
    // On a phone: the page scrolls (not the panel) and nothing is wider than the screen.
    await own.page.setViewportSize({ width: 375, height: 740 });
    await own.page.waitForTimeout(500);
    await own.page.screenshot({ path: `${SHOTS}/map-settings-375.png`, fullPage: true });
    expect(await own.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await own.page.evaluate(() => document.querySelector('.side-panel')!.scrollHeight - document.querySelector('.side-panel')!.clientHeight)).toBe(0);
    await own.page.setViewportSize({ width: 1280, height: 800 });

    // The editor edits: an Edit map button, the tools, a point drawn (not saved yet).
    const ed = await loggedIn(editor.username);
    await openMap(ed.page, path);
    await ed.page.getByRole('button', { name: 'Edit map' }).click();
    await ed.page.getByRole('button', { name: 'Draw a point' }).click();
    const box = (await ed.page.locator('.maplibregl-canvas').boundingBox())!;
    await ed.page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => ed.page.locator('.editor-toolbar button.save').textContent()).toBe('Save (1)');

    // The owner turns collaboration off.
    await own.page.goto(`${service.url}${path}?settings=1`);
    await own.page.getByLabel(/^Collaboration/).uncheck();
    await own.page.getByRole('button', { name: 'Save settings' }).click();
    await own.page.waitForURL(`${service.url}${path}?settings=saved#map-settings`);
    expect(await service.call('map/get', owner.key, { map_id: mapId })).toMatchObject({ collaborate: false, editor_users: [editor.username] });

    // The editor's save is refused and nothing is written; reloaded, no Edit map button.
    await ed.page.locator('.editor-toolbar button.save').click();
    await expect.poll(() => ed.page.locator('.editor-status').textContent()).toMatch(/not edit it: .*collaboration is off/);
    expect(((await service.call('map/get', owner.key, { map_id: mapId })).geojson.features as unknown[]).length).toBe(2);
    ed.page.on('dialog', (dialog) => void dialog.accept()); // leaving with unsaved changes asks first
    await openMap(ed.page, path);
    expect(await ed.page.getByRole('button', { name: 'Edit map' }).count()).toBe(0);
    expect(await ed.page.getByRole('link', { name: 'Map settings' }).count()).toBe(0);
    expect((await service.call('map/list', editor.key, {})).editor.map((m: { id: number }) => m.id)).not.toContain(mapId);
    expect([...own.errors, ...ed.errors]).toEqual([]);
    await own.context.close();
    await ed.context.close();
  });
});
