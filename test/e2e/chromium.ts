// Debian's Chromium (installed by .ci/run) through playwright-core, with WebGL drawn in software
// (SwiftShader through ANGLE: no GPU here), and where the tests' screenshots go; what the browser
// test files share: the in-process service beside Chromium, and logging in through the form.
import fs from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import sharp from 'sharp';
import { startTestService, type TestService } from '../integration/harness.js';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the pages the tests open, to look at (not committed). */
export const SHOTS = 'test/e2e/screenshots';

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
}

/** A browser test file's service (in process, no render worker: the pages show placeholders) and Chromium. */
export async function startServiceAndChromium(): Promise<{ service: TestService; browser: Browser }> {
  const service = await startTestService({ renderWorker: false });
  return { service, browser: await launchChromium() };
}

export async function stopServiceAndChromium({ service, browser }: { service?: TestService; browser?: Browser }): Promise<void> {
  await browser?.close();
  await service?.stop();
}

let addresses = 0;

/**
 * Gives the page's requests an address of their own (X-Forwarded-For; the test service trusts
 * it): the log-in form allows 30 attempts an address in 15 minutes, and the browser test files
 * log in far more often than that from 127.0.0.1.
 */
export async function ownAddress(page: Page): Promise<void> {
  addresses++;
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${process.pid % 250}.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}` });
}

/** Logs in through the log-in page as a person does (the test accounts' password) and waits to leave it. */
export async function logIn(page: Page, serviceUrl: string, username: string): Promise<void> {
  await ownAddress(page);
  await page.goto(`${serviceUrl}/login`);
  await page.getByLabel('Username or e-mail address').fill(username);
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Pixels near a colour in a part of the page (x, y, width, height in page pixels), once the next frames are drawn. */
export async function pixelsNear(page: Page, clip: { x: number; y: number; width: number; height: number }, [r, g, b]: readonly number[], tolerance = 40): Promise<number> {
  await page.waitForTimeout(400);
  const { data, info } = await sharp(await page.screenshot({ clip })).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < tolerance) count++;
  return count;
}

/**
 * A button of the page by its name, as a person reaches it: shown, or else — the editor's toolbar
 * on a narrow page folds what does not fit into its More menu — the More menu's entry for it,
 * with the menu opened.
 */
export async function reachButton(page: Page, name: string): Promise<Locator> {
  // After a resize the toolbar folds on its ResizeObserver, which runs before the next paint:
  // two frames later the row is what a person sees.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const button = page.getByRole('button', { name, exact: true });
  if (await button.isVisible()) return button;
  const more = page.getByRole('button', { name: 'More tools' });
  if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
  const menu = page.getByRole('menu');
  return menu
    .getByRole('menuitem', { name, exact: true })
    .or(menu.getByRole('menuitemradio', { name, exact: true }))
    .or(menu.getByRole('menuitemcheckbox', { name, exact: true }));
}
