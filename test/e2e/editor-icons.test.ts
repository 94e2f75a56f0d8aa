// The icon picker of a point's panel (issue 26 defect 4): the icons themselves, found by a word
// people use ("coffee" finds cafe), chosen with the keyboard alone (arrows, Enter; Escape closes),
// the keyboard back on the icon button, the choice announced and saved; the recently used icon
// first the next time. axe-core with the picker open at 1280 and 375 px; screenshots.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Doc = { features: { properties: Record<string, unknown> }[] };

describe('the icon picker', () => {
  it('shows the icons, finds cafe by "coffee", chooses by keyboard, saves, and lists it first next time', async () => {
    const user = await service.newUser();
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Icons' }, JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'Corner' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [3.0, 49.0] }, properties: { title: 'Other' } },
      ],
    }));
    expect(map.error).toBeUndefined();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await logIn(page, service.url, user.username);
    await page.goto(`${service.url}${new URL(map.url as string).pathname}`);
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: 'Edit map' }).click();
    await page.getByRole('button', { name: 'Corner', exact: true }).click();
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Corner');

    // The icon button: no icon yet. Enter opens the picker, the keyboard in its search field.
    const trigger = page.locator('#item-icon');
    expect(await trigger.getAttribute('aria-label')).toBe('Icon: none. Choose an icon');
    await trigger.focus();
    await page.keyboard.press('Enter');
    expect(await trigger.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('icon-search');
    await expect.poll(() => page.locator('#icon-grid button').count()).toBeGreaterThan(200);
    // The icons themselves: each button shows its image, loaded.
    const image = page.locator('#icon-grid button[data-icon="airport"] img');
    expect(await image.getAttribute('src')).toBe('/assets/maki/airport-1d232a.svg');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // "coffee" is no icon's name: the words people use find cafe first.
    await page.keyboard.type('coffee');
    await expect.poll(() => page.locator('#icon-grid button').first().getAttribute('data-icon')).toBe('cafe');
    expect(await page.locator('#icon-count').textContent()).toMatch(/^\d+ icons?\.$/);
    await page.screenshot({ path: `${SHOTS}/editor-icon-picker.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    // Down into the grid, right and back left, Enter chooses.
    await page.keyboard.press('ArrowDown');
    const focusedIcon = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.icon);
    expect(await focusedIcon()).toBe('cafe');
    await page.keyboard.press('ArrowRight');
    expect(await focusedIcon()).not.toBe('cafe');
    await page.keyboard.press('ArrowLeft');
    expect(await focusedIcon()).toBe('cafe');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#icon-picker').isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('item-icon');
    expect(await trigger.getAttribute('aria-label')).toBe('Icon: cafe. Choose an icon');
    expect(await trigger.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.locator('[data-announcer]').textContent()).toBe('Icon cafe chosen.');

    await page.locator('.editor-toolbar button.save').click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Saved.');
    const saved = (await service.call('map/get', user.key, { map_id: map.id })).geojson as Doc;
    expect(saved.features.find((feature) => feature.properties.title === 'Corner')?.properties['marker-symbol']).toBe('cafe');

    // The other point, on a phone: cafe, recently used, comes first; Escape closes, back on the button.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Other', exact: true }).click();
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Other');
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#icon-grid button').first().getAttribute('data-icon')).toBe('cafe');
    expect(await page.locator('#icon-grid button').first().getAttribute('class')).toContain('recent');
    await page.locator('#icon-picker').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-icon-picker-phone.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#icon-picker').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('item-icon');
    expect(await page.getByLabel('Title', { exact: true }).isVisible()).toBe(true); // Escape closed the picker, not the panel
    expect(errors).toEqual([]);
    await context.close();
  });
});
