// The Settings page's Webhooks section in Chromium: an endpoint added through its form (the
// secret shown once), its delivery listed after a map change, the page axe-clean with and
// without deliveries, at 1280 and 375 px. A local receiver, WEBHOOK_ALLOW_PRIVATE=true.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { launchChromium, logIn, SHOTS } from './chromium.js';

let service: TestService;
let browser: Browser;
let receiver: http.Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      hits++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  service = await startTestService({ renderWorker: false, config: { webhookAllowPrivate: true, webhookRetryFirstMs: 200 } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('the Webhooks section of Settings in Chromium', () => {
  it('adds an endpoint, shows its secret once and its deliveries, and is axe-clean', async () => {
    const owner = await service.newUser();
    const features = JSON.stringify({ type: 'FeatureCollection', features: [] });
    const map = (await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'private', title: 'Hooked' }, features)).id as number;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await logIn(page, service.url, owner.username);
    await page.goto(`${service.url}/settings#webhooks`);
    await expect.poll(() => page.getByText('You have no webhook endpoints.').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Endpoint URL').fill(`${base}/hook`);
    await page.getByLabel('Map number').fill(String(map));
    await page.getByRole('checkbox', { name: 'map.image_refreshed' }).uncheck();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await expect.poll(() => page.locator('#new-webhook').textContent()).toMatch(/whsec_/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await service.call('map/update', owner.key, { map_id: map, title: 'Changed' });
    await expect.poll(() => hits, { timeout: 30_000 }).toBeGreaterThan(0);
    // The delivery row is written just after the receiver answers: read the page until it is there.
    // (A reload each time: a second goto to the same address with #webhooks would only scroll.)
    await page.goto(`${service.url}/settings#webhooks`);
    await expect
      .poll(async () => {
        await page.reload();
        return page.getByRole('cell', { name: 'HTTP 204' }).count();
      }, { timeout: 30_000 })
      .toBe(1);
    expect(await page.locator('#new-webhook').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/settings-webhooks.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: `Delete the endpoint ${base}/hook` }).click();
    await expect.poll(() => page.getByText('The endpoint is deleted.').count()).toBe(1);
    await context.close();
  });
});
