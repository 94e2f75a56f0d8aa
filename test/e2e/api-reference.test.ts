// The API reference at /docs/api (issue 28, item 4): Redoc from the service's own files renders the
// served OpenAPI document — every operation, its ready-to-copy calls in curl, Python and
// JavaScript — with no request leaving the machine, and axe-core finds nothing. Screenshot in
// test/e2e/screenshots/api-reference.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../api/operations.js';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { ownAddress, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;
beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

describe('the API reference page', () => {
  it('shows every operation with calls in curl, Python and JavaScript, from the machine alone, and passes axe', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await ownAddress(page);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(service.url) && !/^(data|blob):/.test(request.url())) outside.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${service.url}/docs/api`);
    await page.getByRole('heading', { level: 1, name: 'Map publishing service API (1)' }).waitFor({ timeout: 60_000 });
    // Every operation has its section (Redoc names them by operationId).
    for (const operation of OPERATIONS) {
      const id = operation.path.split(/[/_]/).map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
      expect(await page.locator(`[id="operation/${id}"]`).count(), operation.path).toBe(1);
    }
    // map/get's calls, each by its tab beside the request's payload.
    const mapGet = page.locator('[id="operation/mapGet"]');
    await mapGet.scrollIntoViewIfNeeded();
    await mapGet.getByRole('tab', { name: 'curl' }).click();
    await mapGet.getByText(`curl -sS ${service.url}/api/1/map/get`).waitFor();
    await mapGet.getByRole('tab', { name: 'Python' }).click();
    await mapGet.getByText('import requests').waitFor();
    await mapGet.getByRole('tab', { name: 'JavaScript' }).click();
    await mapGet.getByText(`const response = await fetch("${service.url}/api/1/map/get", {`).waitFor();
    await page.screenshot({ path: `${SHOTS}/api-reference.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    // On a phone: Redoc's menu behind its button.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/api-reference-375.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves Redoc with a long cache and the page with a policy that allows no other site', async () => {
    const bundle = await fetch(`${service.url}/assets/redoc/redoc.standalone.js`);
    expect([bundle.status, bundle.headers.get('content-type'), bundle.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=86400']);
    expect(await bundle.text()).not.toContain('https://cdn.redoc.ly');
    const page = await fetch(`${service.url}/docs/api`);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toMatch(/https?:/);
  });
});
