// The settings page: API keys (created with a name and shown once, listed by prefix with creation
// and last-use dates, revoked) and map provider keys (checked by kind, shown masked, removed),
// for a logged-in account only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => {
  service = await startTestService();
  ({ browser } = await loggedInAccount(service));
});
afterAll(() => service?.stop());

describe('settings', () => {
  it('sends a visitor who is not logged in to the log-in page', async () => {
    const page = await new Browser(service.url).request('/settings');
    expect([page.status, page.headers.get('location')]).toEqual([302, '/login?next=%2Fsettings']);
    const post = await new Browser(service.url).submit('/login', '/settings/api-keys', { name: 'x' });
    expect(post.status).toBe(302);
  });

  it('creates an API key shown once with a copy button, lists it by prefix with its dates, and revokes it', async () => {
    const created = await browser.submit('/settings', '/settings/api-keys', { name: 'nightly import' });
    expect(created.status).toBe(200);
    const key = /id="new-key" type="text" readonly value="([^"]+)"/.exec(created.html)?.[1];
    expect(key).toMatch(/^mps_[A-Za-z0-9]{10}_/);
    expect(created.html).toContain('data-copy="new-key"');
    expect(created.html).toContain('<script src="/assets/settings.js" defer></script>');
    const prefix = key!.split('_')[1]!;
    const listed = await browser.request('/settings');
    expect(listed.html).not.toContain(key!); // never shown again
    expect(listed.html).toContain(`mps_${prefix}_…`);
    expect(listed.html).toMatch(/nightly import<\/td><td>\d{4}-\d\d-\d\d<\/td><td>never<\/td>/);
    expect((await service.call('map/list', key!, {})).error).toBeUndefined();
    expect((await browser.request('/settings')).html).toMatch(/nightly import<\/td><td>\d{4}-\d\d-\d\d<\/td><td>\d{4}-\d\d-\d\d<\/td>/);
    // Revoke asks first, naming the key, and changes nothing until it is confirmed.
    const asked = await browser.submit('/settings', '/settings/api-keys/revoke', { prefix });
    expect(asked.html).toContain(`Revoke the key <strong>nightly import</strong> (<code>mps_${prefix}_…</code>)?`);
    expect(asked.html).toContain('<input type="hidden" name="confirm" value="1"/>');
    expect((await service.call('map/list', key!, {})).error).toBeUndefined();
    const revoked = await browser.submit('/settings', '/settings/api-keys/revoke', { prefix, confirm: '1' });
    expect(revoked.html).toContain('The key is revoked');
    expect(revoked.html).not.toContain(`mps_${prefix}_…`);
    expect(await service.call('map/list', key!, {})).toMatchObject({ error_code: 'invalid_api_key' });
    const nameless = await browser.submit('/settings', '/settings/api-keys', { name: '  ' });
    expect([nameless.status, nameless.html.includes('Give the new key a name')]).toEqual([400, true]);
    const script = await browser.request('/assets/settings.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
  });

  it('saves provider keys checked by kind, shows them masked, and removes them', async () => {
    const secret = await browser.submit('/settings', '/settings/provider-keys', { kind: 'map_platform', key: 'sk.eyJ1IjoiYWxpY2UiLCJhIjoiY2xzZWNyZXQifQ.abcdef' });
    expect([secret.status, secret.html.includes('This is a secret token')]).toEqual([400, true]);
    const token = 'pk.eyJ1IjoiYWxpY2UiLCJhIjoiY2xwdWJsaWMifQ.Q1c9Q1c9Q1c';
    const saved = await browser.submit('/settings', '/settings/provider-keys', { kind: 'map_platform', key: token });
    expect(saved.html).toContain('Saved: pk.eyJ…9Q1c.');
    expect(saved.html).not.toContain(token);
    const apiKey = await browser.submit('/settings', '/settings/provider-keys', { kind: 'tile_provider', key: 'short' });
    expect([apiKey.status, apiKey.html.includes('must have 8 to 512')]).toEqual([400, true]);
    const unknownKind = await browser.submit('/settings', '/settings/provider-keys', { kind: 'nope', key: 'abcdefgh1234' });
    expect(unknownKind.status).toBe(400);
    const page = await browser.request('/settings');
    for (const label of ['Mapbox (public token)', 'HERE (API key)', 'Esri ArcGIS (API key)', 'Thunderforest (API key)']) {
      expect(page.html).toContain(`>${label}</label>`);
    }
    const removed = await browser.submit('/settings', '/settings/provider-keys/remove', { kind: 'map_platform' });
    expect(removed.html).toContain('The provider key is removed.');
    expect(removed.html).not.toContain('pk.eyJ…');
  });
});
