// The security probe's pages in Chromium (issue 24): about twenty script-injection payloads in a
// map's title and description and in its items' titles, descriptions, links, media links, icons,
// group titles and other properties, rendered on every page that shows them — the map page (as a
// visitor, with popups), the embed with its panel, the editor with an item selected, the
// settings form and its description preview, Explore and My maps. Each payload would set
// `window.__xss` and carries a `data-xss` attribute: the pages are opened with the
// Content-Security-Policy bypassed (so that an injected script would run and be seen), and after
// each page the flag is unset, no element carries data-xss or an on* handler, and no address is
// a javascript: one. And the takeover of defect 8: a description naming another map's data and
// the editor's addresses does not change which map a visitor's page shows, nor give it a toolbar.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { logIn, ownAddress, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

const RUN = 'window.__xss=1';
const PAYLOADS = [
  `<script data-xss>${RUN}</script>`,
  `<img src=x data-xss onerror="${RUN}">`,
  `<svg data-xss onload="${RUN}"></svg>`,
  `[link](javascript:${RUN})`,
  `<a data-xss href="javascript:${RUN}">a</a>`,
  `<iframe data-xss src="javascript:${RUN}"></iframe>`,
  `<iframe data-xss srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `"><img src=x data-xss onerror=${RUN}>`,
  `'><svg/onload=${RUN} data-xss>`,
  `</script><script data-xss>${RUN}</script>`,
  `<math data-xss><mtext><table><mglyph><style><img src=x onerror=${RUN}>`,
  `<details data-xss open ontoggle="${RUN}"><summary>s</summary></details>`,
  `<body data-xss onload="${RUN}">`,
  `<object data-xss data="javascript:${RUN}"></object>`,
  `<form data-xss><button formaction="javascript:${RUN}">x</button></form>`,
  `![pic](javascript:${RUN})`,
  `[entity](&#106;avascript:${RUN})`,
  `<a data-xss href="jav&#x09;ascript:${RUN}">tab</a>`,
  `<input data-xss autofocus onfocus="${RUN}">`,
  `<noscript><p title="</noscript><img src=x data-xss onerror=${RUN}>">`,
  `{{constructor.constructor('${RUN}')()}}`,
];

/** What an injected payload would leave in the page. */
async function expectClean(page: Page, where: string): Promise<void> {
  await page.waitForTimeout(200);
  const found = await page.evaluate(() => {
    const attributes = ['href', 'src', 'action', 'formaction', 'data'];
    const all = [...document.querySelectorAll('*')];
    return {
      flag: (window as unknown as { __xss?: number }).__xss,
      marked: document.querySelectorAll('[data-xss]').length,
      handlers: all.filter((node) => [...node.attributes].some((a) => /^on/i.test(a.name))).map((node) => node.outerHTML.slice(0, 80)),
      scriptAddresses: all.filter((node) => attributes.some((name) => /^javascript:/i.test((node.getAttribute(name) ?? '').replace(/[^\x21-\x7e]/g, '')))).map((node) => node.outerHTML.slice(0, 80)),
    };
  });
  expect(found, where).toEqual({ flag: undefined, marked: 0, handlers: [], scriptAddresses: [] });
}

async function context(): Promise<{ context: BrowserContext; page: Page }> {
  const made = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await made.newPage();
  await ownAddress(page);
  return { context: made, page };
}

const drawn = (page: Page) => page.locator('figure.map-view[data-map-drawn]').waitFor({ state: 'attached', timeout: 30_000 });

describe('the security probe in Chromium', () => {
  it('runs none of the payloads on the map page, its popups, the embed, the editor, the settings and the listings', async () => {
    const owner = await service.newUser();
    const groups = PAYLOADS.slice(0, 5).map((payload, i) => ({ id: i + 1, title: payload }));
    const features = PAYLOADS.map((payload, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.3 + i * 0.01, 48.85] },
      properties: { title: payload, description: `${payload}\n\n${PAYLOADS.join('\n\n')}`, url: `javascript:${RUN}`, media_url: `javascript:${RUN}`, 'marker-symbol': payload, note: payload, group: (i % 5) + 1 },
    }));
    const description = PAYLOADS.join('\n\n');
    const map = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public', title: PAYLOADS[1], description }, JSON.stringify({ type: 'FeatureCollection', groups, features }));
    expect(map.error).toBeUndefined();
    const path = new URL(map.url as string).pathname;

    // A visitor: the map page, then a popup of each of the first items.
    const visitor = await context();
    const problems: string[] = [];
    visitor.page.on('pageerror', (error) => problems.push(String(error)));
    await visitor.page.goto(`${service.url}${path}`);
    await drawn(visitor.page);
    await expectClean(visitor.page, 'the map page');
    for (let i = 0; i < 4; i++) {
      await visitor.page.locator('.item-list button.item-title').nth(i).click();
      await expect.poll(() => visitor.page.locator('.maplibregl-popup').count()).toBe(1);
      await expectClean(visitor.page, `popup ${i}`);
    }
    // The embed with its panel, played.
    await visitor.page.goto(`${service.url}/embed/${map.id}?panel=1`);
    await expectClean(visitor.page, 'the embed');
    await visitor.page.locator('button.play').click();
    await drawn(visitor.page);
    await visitor.page.locator('.item-list button.item-title').first().click();
    await expectClean(visitor.page, 'the played embed with a popup');
    await visitor.page.goto(`${service.url}/explore`);
    await expectClean(visitor.page, 'Explore');
    expect(problems).toEqual([]);
    await visitor.context.close();

    // The owner: the editor with an item selected, the settings and the preview, My maps.
    const own = await context();
    await logIn(own.page, service.url, owner.username);
    await own.page.goto(`${service.url}${path}`);
    await drawn(own.page);
    await own.page.getByRole('button', { name: 'Edit map' }).click();
    await own.page.locator('.item-list button.item-title').nth(2).click();
    await own.page.locator('#item-title').waitFor({ timeout: 10_000 });
    await expectClean(own.page, 'the editor with an item selected');
    await own.page.goto(`${service.url}${path}?settings=1#map-settings`);
    await expectClean(own.page, 'the settings');
    await own.page.getByRole('button', { name: 'Preview the description' }).click();
    await own.page.getByLabel('Description preview').waitFor();
    await expectClean(own.page, 'the description preview');
    await own.page.goto(`${service.url}/maps`);
    await expectClean(own.page, 'My maps');
    await own.context.close();
  });

  it("does not let a description take over the page: a visitor's page loads its own map's data and shows no editor", async () => {
    const victim = await service.newUser();
    const target = await service.send('map/upload', victim.key, { file_type: 'geojson', visibility: 'public', title: 'Target' }, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [10, 50] }, properties: { title: 'Not here' } }] }));
    const targetPath = new URL(target.url as string).pathname;
    const author = await service.newUser();
    const takeover = `<div data-map-geojson="${targetPath}/map.geojson" data-map-style="/basemaps/dark/style.json" data-save-url="/maps/${target.id}/save" data-import-url="/maps/${target.id}/import" data-csrf="x" id="map-config" class="map-view">Take over</div>\n\n<figure class="map-view" data-map-geojson="${targetPath}/map.geojson"></figure>`;
    const map = await service.send('map/upload', author.key, { file_type: 'geojson', visibility: 'public', title: 'Mine', description: takeover }, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Here' } }] }));
    const path = new URL(map.url as string).pathname;

    const visitor = await context();
    const data: string[] = [];
    visitor.page.on('request', (request) => {
      if (request.url().endsWith('/map.geojson')) data.push(new URL(request.url()).pathname);
    });
    await visitor.page.goto(`${service.url}${path}`);
    await drawn(visitor.page);
    expect(data).toEqual([`${path}/map.geojson`]);
    expect(await visitor.page.locator('[role="toolbar"]').count()).toBe(0);
    expect(await visitor.page.getByRole('button', { name: 'Edit map' }).count()).toBe(0);
    expect(await visitor.page.locator('.description').textContent()).toContain('Take over');
    await expectClean(visitor.page, 'the takeover page');
    await visitor.context.close();
  });
});
