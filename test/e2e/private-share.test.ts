// A private map's Share in Chromium (issue 26, defect 5), with the keyboard only: the page says the
// map is private, Share says nobody else can open its link or embed code, Copy puts the link on
// the clipboard and says so, and "Make it unlisted" opens it up — axe-core finds nothing in either
// state; screenshots at 1280 and 375 pixels in test/e2e/screenshots/private-share-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;
beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

describe('a private map’s Share in Chromium', () => {
  it('says the map is private, copies its link with the keyboard, and makes it unlisted', async () => {
    const user = await service.newUser();
    const made = await service.send('map/upload', user.key, { file_type: 'empty', visibility: 'private', title: 'Secret spots' });
    const path = new URL(made.url as string).pathname;
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error(error));
      await logIn(page, service.url, user.username);
      await page.goto(`${service.url}${path}`);
      await expect.poll(() => page.locator('.meta .badge').textContent()).toBe('Private');
      // Share, opened from the keyboard.
      await page.locator('#share > summary').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#share-closed').isVisible()).toBe(true);
      expect(await page.locator('#share-closed').textContent()).toContain('Anyone else who follows its link or embed code is told there is no such map.');
      const copy = page.getByRole('button', { name: 'Copy Link' });
      expect(await copy.count()).toBe(1);
      await copy.focus();
      await page.keyboard.press('Enter');
      const copied = page.getByRole('button', { name: 'Copied Link' });
      await expect.poll(() => copied.count()).toBe(1);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.locator('#share-link').inputValue());
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/private-share-${width}.png`, fullPage: true });
      await context.close();
    }

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(page, service.url, user.username);
    await page.goto(`${service.url}${path}#share`);
    await page.locator('#share > summary').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Make it unlisted' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.includes('~'));
    expect(await page.locator('.meta .badge').count()).toBe(0);
    await page.locator('#share > summary').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#share .hint').first().textContent()).toBe('Only people who have this link or an embed code can open this map.');
    expect(await page.locator('#share-link').inputValue()).toMatch(/~[A-Z]{22}$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect((await service.call('map/get', user.key, { map_id: made.id })).visibility).toBe('unlisted');
    await page.close();
  });
});
