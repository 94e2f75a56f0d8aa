// The editor's History in Chromium: the versions listed (who, when, what), a version previewed on
// the map (the tools wait meanwhile), a restore refused while changes are unsaved, then done: the
// page comes back on the restored map, and map/get has it; a map saved over a hundred times, its
// older versions a page further (Show older versions). Screenshots in test/e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

const point = (lon: number, lat: number, title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { title } });

describe('the editor History in Chromium', () => {
  it('lists the versions, previews one and restores it', async () => {
    const user = await service.newUser();
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Walks' }, JSON.stringify({ type: 'FeatureCollection', features: [point(2, 48, 'Start'), point(3, 49, 'End')] }));
    expect(map.error).toBeUndefined();
    const appended = await service.send('map/append', user.key, { map_id: map.id, file_type: 'geojson' }, JSON.stringify({ type: 'FeatureCollection', features: [point(2.5, 48.5, 'Picnic')] }));
    expect(appended.error).toBeUndefined();
    const path = new URL(map.url as string).pathname;

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await logIn(page, service.url, user.username);
    await page.goto(`${service.url}${path}?edit=1`);
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);

    await page.getByRole('button', { name: /^History/ }).click();
    const versions = page.locator('.history-panel .version');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).textContent()).toMatch(new RegExp(`${user.username} \\(current\\)Imported: 1 item added\\. 3 items in the map\\.`));
    expect(await versions.nth(1).textContent()).toContain('Created with 2 items. 2 items in the map.');

    // Draw a point: with it unsaved, a restore is refused (it would be lost).
    const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
    await page.getByRole('button', { name: 'Draw a point' }).click();
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.5);
    await expect.poll(() => page.locator('.editor-toolbar button.save').textContent()).toBe('Save (1)');

    await page.getByRole('button', { name: /^Preview the version of/ }).click();
    await expect.poll(() => page.locator('.history-message[role=status]').textContent()).toMatch(/The map shows the version of .* \(2 items\)\./);
    // The tools wait while another version is shown.
    expect(await page.getByRole('button', { name: 'Draw a point' }).isDisabled()).toBe(true);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/editor-history-preview.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Restore this version' }).click();
    expect(await page.locator('.history-notice').textContent()).toBe('You have a change not saved: save or undo it before restoring a version.');

    // Back to the map, the drawing undone, then restored for real.
    await page.getByRole('button', { name: 'Back to the current map' }).click();
    expect(await page.getByRole('button', { name: 'Draw a point' }).isDisabled()).toBe(false);
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator('.editor-toolbar button.save').textContent()).toBe('Saved');
    await page.getByRole('button', { name: /^Preview the version of/ }).click();
    await page.getByRole('button', { name: 'Restore this version' }).click();
    // The page comes back on the restored map, tools on.
    await expect.poll(() => page.locator('.item-list [data-item-id]').count(), { timeout: 20_000 }).toBe(2);
    await expect.poll(() => page.getByRole('button', { name: 'Stop editing' }).count(), { timeout: 20_000 }).toBe(1);
    const doc = (await service.call('map/get', user.key, { map_id: map.id })).geojson as { features: { properties: { title: string } }[] };
    expect(doc.features.map((f) => f.properties.title)).toEqual(['Start', 'End']);
    await page.getByRole('button', { name: /^History/ }).click();
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.nth(0).textContent()).toMatch(/Restored the version of .*: 1 deleted\. 2 items in the map\./);
    await page.screenshot({ path: `${SHOTS}/editor-history-restored.png` });

    // At 375 px the History is in the side panel below the map, nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.locator('.history-panel').screenshot({ path: `${SHOTS}/editor-history-375.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists a hundred versions at first and older ones on Show older versions, down to the first, which previews', async () => {
    const user = await service.newUser();
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Often saved' }, JSON.stringify({ type: 'FeatureCollection', features: [point(2, 48, 'Start')] }));
    expect(map.error).toBeUndefined();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await logIn(page, service.url, user.username);
    await page.goto(`${service.url}${new URL(map.url as string).pathname}?edit=1`);
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
    // 104 saves as the editor makes them (its save route, its form token), each renaming the point: 105 versions.
    const saved = await page.evaluate(
      async ({ mapId, feature }) => {
        // The page's config in its head (lib/mapPageConfig.ts).
        const config = JSON.parse(document.getElementById('map-config')!.textContent!) as { geojson: string; edit: { csrf: string } };
        const csrf = config.edit.csrf;
        let revision = Number((await fetch(config.geojson)).headers.get('x-map-revision'));
        for (let n = 1; n <= 104; n++) {
          const response = await fetch(`/maps/${mapId}/save`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
            body: JSON.stringify({ revision, features: { added: [], changed: [{ ...feature, id: 1, properties: { title: `Start, take ${n}` } }], deleted: [] } }),
          });
          if (!response.ok) return `save ${n}: ${response.status} ${await response.text()}`;
          revision = ((await response.json()) as { revision: number }).revision;
        }
        return 'saved';
      },
      { mapId: map.id as number, feature: point(2, 48, 'Start') },
    );
    expect(saved).toBe('saved');

    await page.getByRole('button', { name: /^History/ }).click();
    const versions = page.locator('.history-panel .version');
    const older = page.getByRole('button', { name: 'Show older versions' });
    await expect.poll(() => versions.count()).toBe(100);
    expect(await older.isVisible()).toBe(true);
    await older.scrollIntoViewIfNeeded();
    await page.locator('.history-panel').screenshot({ path: `${SHOTS}/editor-history-more.png` });
    await older.click();
    await expect.poll(() => versions.count()).toBe(105);
    expect(await older.isVisible()).toBe(false);
    expect(await versions.nth(104).textContent()).toContain('Created with 1 item. 1 item in the map.');
    // The first version, from the older page, previews as any other.
    await versions.nth(104).getByRole('button', { name: /^Preview the version of/ }).click();
    await expect.poll(() => page.locator('.history-message[role=status]').textContent()).toMatch(/The map shows the version of .* \(1 item\)\./);
    await page.locator('.history-panel').screenshot({ path: `${SHOTS}/editor-history-older.png` });
    // At 375 px: the long list stays inside the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.locator('.history-panel').screenshot({ path: `${SHOTS}/editor-history-older-375.png` });
    expect(errors).toEqual([]);
    await context.close();
  });
});
