// A new user's whole journey in a real browser (Debian's Chromium through playwright-core), with a
// real SMTP server on loopback receiving the service's mail: sign up → the mail's link makes the
// account → log in, out and in → create an API key → use it against the API (a photo, a custom
// marker and a map with groups) → the map's page (groups, filter, eye toggle, a popup with title,
// photo and YouTube player, from the list and from the map) → a private map is 404 to another
// account and visible to a `select` viewer → provider key validation → a change of address with
// the keyboard (the current password asked for) → a cross-site form post refused → a password reset. No request leaves the machine; every page is photographed (test/e2e/screenshots/),
// at 1280 and at 375 pixels wide, and checked with axe-core.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../integration/harness.js';
import { linkIn, startSmtpInbox, type SmtpInbox } from '../support/smtpInbox.js';
import { accessibilityViolations } from './accessibility.js';
import { launchChromium, SHOTS } from './chromium.js';

let service: TestService;
let mail: SmtpInbox;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const offsite: string[] = [];
const pageErrors: string[] = [];

const name = `walker${Date.now().toString(36)}`;
const email = `${name}@example.test`;
let apiKey = '';
let mapPath = '';
let mapId = 0;
let imageId = '';
let markerId = '';

/** A photograph and a marker like people upload them. */
const photo = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: '#2a7a3b' } })
    .composite([{ input: { create: { width: 450, height: 600, channels: 3, background: '#d9a030' } }, left: 450, top: 0 }])
    .jpeg()
    .toBuffer();
const marker = () =>
  sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><circle cx="48" cy="48" r="40" fill="#c0392b" stroke="#fff" stroke-width="8"/></svg>'))
    .png()
    .toBuffer();

/** Photographs the page and checks it with axe-core: no violation. */
async function shoot(name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/journey-${name}.png`, fullPage: true });
  const violations = await accessibilityViolations(page);
  expect([name, violations]).toEqual([name, []]);
}

/** The page at 375 pixels wide: photographed, and no wider than the screen. */
async function narrow(name: string): Promise<void> {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: `${SHOTS}/journey-${name}-375.png`, fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect([name, overflow]).toEqual([name, 0]);
}

beforeAll(async () => {
  mail = await startSmtpInbox();
  service = await startTestService({ renderWorker: false, config: { smtpUrl: mail.url, mailFrom: 'Maps <maps@example.test>' } });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(service.url) && !url.startsWith('data:') && !url.startsWith('blob:') && !url.startsWith('http://127.0.0.1:')) offsite.push(url);
  });
  // The YouTube player's address is named in the popup; its frame is answered here, never fetched.
  await context.route(/youtube-nocookie\.com/, (route) => route.fulfill({ status: 204, body: '' }));
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await mail?.close();
});

describe("a new user's journey in Chromium", () => {
  it("signs up, opens the mail's link that makes the account, logs in, out and in again", async () => {
    await page.goto(`${service.url}/`);
    await shoot('home');
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    // Two fields wrong at once: both said, each under its field (axe-checked), then corrected.
    await page.getByLabel('Username').fill('x');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.field-error').count()).toBe(2);
    expect(await page.getByRole('alert').textContent()).toBe('Nothing was sent: 2 fields need correcting, as said under each.');
    await shoot('signup-errors');
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('a long secret');
    await shoot('signup');
    await narrow('signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Check your e-mail');
    await shoot('check-mail');
    await narrow('check-mail');
    await page.goto(linkIn(await mail.mailTo(email, 'Verify your e-mail address')));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in');
    expect(await page.getByRole('status').textContent()).toContain(`Your account ${name} is ready`);
    expect(await page.getByLabel('Username or e-mail address').inputValue()).toBe(name);
    await shoot('account-ready');
    await narrow('account-ready');
    // The keyboard: the password, then Enter.
    await page.getByLabel('Password').focus();
    await page.keyboard.type('a long secret');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Log out' }).count()).toBe(1);
    expect(await page.content()).toContain('<span class="badge">verified</span>');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.goto(`${service.url}/login`);
    await page.getByLabel('Username or e-mail address').fill(email);
    await page.getByLabel('Password').fill('a long secret');
    await shoot('login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Log out' }).count()).toBe(1);
  });

  it('creates an API key on the settings page and uses it: a photo, a custom marker and a map with groups', async () => {
    await page.goto(`${service.url}/settings`);
    await page.getByLabel('Name of a new key').fill('journey');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    apiKey = await page.getByLabel('New API key').inputValue();
    expect(apiKey.length).toBeGreaterThan(20);
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await shoot('settings-new-key');
    await narrow('settings');
    // The key is shown once: the page lists it by its prefix only afterwards.
    await page.goto(`${service.url}/settings`);
    expect(await page.content()).not.toContain(apiKey);
    // A spare key, revoked: Revoke asks first (axe-checked), Keep it keeps it, Revoke it revokes it.
    await page.getByLabel('Name of a new key').fill('spare');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    await page.getByRole('button', { name: 'Revoke the key spare' }).click();
    expect(await page.locator('#confirm-revoke').textContent()).toContain('Revoke the key spare');
    await shoot('settings-revoke-confirm');
    await page.getByRole('link', { name: 'Keep it' }).click();
    expect(await page.getByRole('button', { name: 'Revoke the key spare' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Revoke the key spare' }).click();
    await page.getByRole('button', { name: 'Revoke it' }).click();
    expect(await page.getByRole('button', { name: 'Revoke the key spare' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Revoke the key journey' }).count()).toBe(1);

    const image = await service.send('image/upload', apiKey, { file_type: 'jpg' }, await photo());
    expect(image.error).toBeUndefined();
    imageId = image.image_id as string;
    const icon = await service.send('marker/upload', apiKey, { file_type: 'png' }, await marker());
    expect(icon.error).toBeUndefined();
    markerId = icon.marker_id as string;
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Views' }, { id: 2, title: 'Paths', parent: 1 }],
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [6.8652, 45.8326] },
          properties: {
            title: 'Photo spot',
            description: 'The _best_ view of the glacier',
            media_url: 'https://youtu.be/dQw4w9WgXcQ',
            image: { id: imageId, w: image.width, h: image.height, tip_color: image.tip_color, avg_color: image.avg_color },
            group: 1,
          },
        },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [6.84, 45.85] }, properties: { title: 'Refuge', marker_id: markerId, group: 1 } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[6.83, 45.82], [6.86, 45.84], [6.9, 45.845]] }, properties: { title: 'Balcony trail', color: '#b03a2e', group: 2 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [6.92, 45.81] }, properties: { title: 'Lake', 'marker-symbol': 'water' } },
      ],
    };
    const map = await service.send('map/upload', apiKey, { file_type: 'geojson', visibility: 'private', title: 'Chamonix', description: 'Walks around **Chamonix**.' }, JSON.stringify(geojson));
    expect(map.error).toBeUndefined();
    mapPath = new URL(map.url as string).pathname;
    mapId = map.id as number;
  });

  it("opens the map's page: groups, filter, eye toggle, and a popup with the photo and the player, from the list and from the map", async () => {
    const markerAnswers: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes(`/markers/${markerId}/`)) markerAnswers.push(response.status());
    });
    await page.goto(`${service.url}${mapPath}`);
    await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator('.description strong').textContent()).toBe('Chamonix');
    const tree = page.locator('.item-list');
    expect(await tree.getByText('Views').count()).toBe(1);
    expect(await tree.locator('details details summary').textContent()).toContain('Paths');
    // The custom marker is drawn from its file.
    await expect.poll(() => markerAnswers, { timeout: 10_000 }).toContain(200);
    await page.waitForTimeout(1_000);
    await shoot('map-page');
    await narrow('map-page');

    await page.getByLabel('Filter items').fill('lake');
    expect(await page.getByRole('button', { name: 'Lake', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Refuge', exact: true }).isVisible()).toBe(false);
    await page.getByLabel('Filter items').fill('');
    const eye = page.getByRole('button', { name: 'Show or hide Lake' });
    await eye.click();
    expect(await eye.getAttribute('aria-pressed')).toBe('false');
    await eye.press('Enter'); // the keyboard works too
    expect(await eye.getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'Photo spot', exact: true }).click();
    const popup = page.locator('.maplibregl-popup');
    await expect.poll(() => popup.count()).toBe(1);
    expect(await popup.locator('h3').textContent()).toBe('Photo spot');
    expect(await popup.locator('.description em').textContent()).toBe('best');
    const img = popup.locator('img');
    expect(await img.getAttribute('src')).toBe(`/images/${imageId}/s512`);
    await expect.poll(() => img.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth)).toBe(512);
    expect(await img.evaluate((element) => (element as HTMLElement).style.background)).toMatch(/^rgb\(/);
    expect(await popup.evaluate((element) => (element as HTMLElement).style.getPropertyValue('--tip-color'))).toMatch(/^#[0-9a-f]{6}$/i);
    expect(await popup.locator('iframe').getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await page.waitForTimeout(1_200); // the map eases to the point
    await shoot('map-popup');

    // The whole popup is inside the map (it scrolls within it when tall).
    const map = (await page.locator('.maplibregl-canvas').boundingBox())!;
    const shown = (await popup.boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(map.y);
    expect(shown.y + shown.height).toBeLessThanOrEqual(map.y + map.height + 1);
    // From the map: the list moved the point to the middle, a quarter of the height below the
    // centre; close the popup and click there.
    await popup.getByRole('button', { name: 'Close popup' }).click();
    await expect.poll(() => popup.count()).toBe(0);
    await page.mouse.click(map.x + map.width / 2, map.y + (map.height * 3) / 4);
    await expect.poll(() => popup.count()).toBe(1);
    expect(await popup.locator('h3').textContent()).toBe('Photo spot');

    // The list with the keyboard alone: Enter on an item opens its popup, on a group folds it.
    await page.getByRole('button', { name: 'Refuge', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => popup.locator('h3').textContent()).toBe('Refuge');
    const paths = page.locator('.item-list details details');
    await paths.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await paths.getAttribute('open')).toBeNull();
    expect(await page.getByRole('button', { name: 'Balcony trail', exact: true }).isVisible()).toBe(false);
  });

  it('answers 404 to another account for the private map and shows it to a select viewer', async () => {
    const other = await service.newUser();
    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const viewerPage = await viewerContext.newPage();
    await viewerPage.goto(`${service.url}/login?next=${encodeURIComponent(mapPath)}`);
    await viewerPage.getByLabel('Username or e-mail address').fill(other.username);
    await viewerPage.getByLabel('Password').fill('correct horse');
    await viewerPage.getByRole('button', { name: 'Log in' }).click();
    await viewerPage.waitForURL(`${service.url}${mapPath}`);
    expect(await viewerPage.getByRole('heading', { level: 1 }).textContent()).toBe('Map not found');
    await viewerPage.screenshot({ path: `${SHOTS}/journey-private-404.png` });
    await service.db('map_members').insert({ map_id: mapId, user_id: other.userId, role: 'viewer' });
    await service.db('maps').where({ id: mapId }).update({ visibility: 'select' });
    const seen = await viewerPage.goto(`${service.url}${mapPath}`);
    expect(seen?.status()).toBe(200);
    expect(await viewerPage.getByRole('heading', { level: 1 }).textContent()).toBe('Chamonix');
    await viewerContext.close();
  });

  it('checks provider keys: a secret token is refused with the reason, a public one saved and shown masked', async () => {
    await page.goto(`${service.url}/settings#provider-keys`);
    const field = page.getByLabel('Mapbox (public token)', { exact: true });
    const save = page.getByRole('button', { name: 'Save the Mapbox (public token) key' });
    await field.fill('sk.eyJ1IjoibWFwcyIsImEiOiJzZWNyZXQifQ.abcdefghijkl');
    await save.click();
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toContain('public token, which starts with "pk."');
    // The message is in the provider keys section, where the page scrolled to.
    expect(page.url()).toBe(`${service.url}/settings/provider-keys#provider-keys`);
    expect(await alert.evaluate((element) => element.previousElementSibling?.id)).toBe('provider-keys');
    await shoot('provider-key-refused');
    await page.getByLabel('Mapbox (public token)', { exact: true }).fill('pk.eyJ1IjoibWFwcyIsImEiOiJwdWJsaWMifQ.abcdefghijkl');
    await page.getByRole('button', { name: 'Save the Mapbox (public token) key' }).click();
    expect(await page.getByRole('status').first().textContent()).toMatch(/^Saved: pk\.eyJ…ijkl\.$/);
    expect(await page.getByRole('button', { name: 'Remove the Mapbox (public token) key' }).count()).toBe(1);
    expect(await page.content()).not.toContain('pk.eyJ1IjoibWFwcyIsImEiOiJwdWJsaWMifQ');
    await shoot('provider-key-saved');
  });

  it('changes the e-mail address with the keyboard alone, asked for the current password', async () => {
    const moved = `${name}.moved@example.test`;
    await page.goto(`${service.url}/settings`);
    await page.getByLabel('New e-mail address').focus();
    await page.keyboard.type(moved);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('current-password');
    await page.keyboard.type('not my password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The current password is not right.');
    expect(await page.getByLabel('New e-mail address').inputValue()).toBe(moved); // what was typed stays
    await shoot('email-change-refused');
    await narrow('email-change-refused');
    await page.getByLabel('Current password').focus();
    await page.keyboard.type('a long secret');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('We sent a link to the new address');
    expect(await page.content()).toContain(`${moved} <span class="badge warn">waiting for its link to be opened</span>`);
    await shoot('email-change-sent');
    await narrow('email-change-sent');
    await mail.mailTo(moved, 'Verify your e-mail address');
  });

  it('refuses a form posted from another site, even with the session cookie', async () => {
    // Another site on this machine (a different port: same-site, so the Lax cookie is sent; the
    // browser's Sec-Fetch-Site says it is not the service's own page).
    // This person's keys (other test files add keys to the shared database meanwhile).
    const keysOfWalker = () => service.db('api_keys').join('users', 'users.id', 'api_keys.user_id').where('users.username', name).select('api_keys.name');
    const before = await keysOfWalker();
    const attacker = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><title>Win a prize</title><form id="f" method="post" action="${service.url}/settings/api-keys"><input name="name" value="stolen"><input name="_csrf" value="guess"></form><script>document.getElementById('f').submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const answer = page.waitForResponse((response) => response.url() === `${service.url}/settings/api-keys`);
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      expect((await answer).status()).toBe(403);
      await page.waitForLoadState();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This form was refused');
      await shoot('csrf-refused');
    } finally {
      await new Promise((resolve) => attacker.close(resolve));
    }
    const after = await keysOfWalker();
    expect(after).toEqual(before);
    expect(after.map((key: { name: string }) => key.name)).not.toContain('stolen');
  });

  it('resets a forgotten password from the mail, and logs in with the new one', async () => {
    await page.goto(`${service.url}/settings`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.goto(`${service.url}/login`);
    await page.getByRole('link', { name: /forgot/i }).click();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.getByRole('status').textContent()).toContain('we sent it a link');
    await shoot('reset-sent');
    await page.goto(linkIn(await mail.mailTo(email, 'Reset your password')));
    await page.getByLabel('New password').fill('another long secret');
    await shoot('reset-new-password');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.goto(`${service.url}/login`);
    await page.getByLabel('Username or e-mail address').fill(name);
    await page.getByLabel('Password').fill('another long secret');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Log out' }).count()).toBe(1);
    await page.goto(`${service.url}/maps`);
    await shoot('my-maps');
    await narrow('my-maps');
    await page.goto(`${service.url}/explore`);
    await shoot('explore');
  });

  it('sent no request off the machine and raised no script error', () => {
    expect(offsite.filter((url) => !url.includes('youtube-nocookie.com'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
