// The map page's settings section (?settings=1) and its form, POST /maps/{id}/settings, through
// the real service and PostgreSQL: each setting saved and read back through map/get and map/list,
// the rename's redirect, the description's preview, the basemap catalogue with its pictures (a
// commercial one drawn with the owner's key from a local tile server), and the refusals — bad
// fields answered next to the field with what was typed kept, editors limited to what map/update
// lets them change, viewers and strangers refused, cross-site posts refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

const OWNER_KEY = 'pk.owner-token-0123456789abcdefghij';

let service: TestService;
let tileServer: http.Server;

/** A commercial provider's tiles: a blue square for the owner's key, 401 for any other. */
async function startTileServer(): Promise<string> {
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3366cc' } }).png().toBuffer();
  tileServer = http.createServer((request, response) => {
    const key = new URL(request.url ?? '/', 'http://localhost').searchParams.get('key');
    if (key !== OWNER_KEY) return void response.writeHead(401).end('unauthorized');
    response.writeHead(200, { 'content-type': 'image/png' }).end(tile);
  });
  await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tileServer.address() as AddressInfo).port}/{z}/{x}/{y}.png?key={key}`;
}

beforeAll(async () => {
  const urlOverride = await startTileServer();
  service = await startTestService({ renderWorker: false, tiles: { urlOverride, timeoutMs: 2_000 } });
});
afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => tileServer?.close(resolve));
});

const account = () => loggedInAccount(service);

async function newMap(key: string, title = 'Lakes', visibility = 'public') {
  const answer = await service.send('map/upload', key, { file_type: 'empty', visibility, title, description: 'Cold *water*.' });
  expect(answer.error).toBeUndefined();
  return { id: answer.id as number, path: new URL(answer.url as string).pathname };
}

/** The owner's whole form as the page fills it, with these fields changed. */
const ownerForm = (fields: Record<string, string> = {}) => ({
  sharing: '1',
  title: 'Lakes',
  short_name: 'lakes',
  description: 'Cold *water*.',
  basemap: 'classic',
  visibility: 'public',
  editor_users: '',
  viewer_users: '',
  ...fields,
});

const settingsOf = (html: string) => /<section id="map-settings"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
const errorOf = (html: string, id: string) => new RegExp(`<small id="${id}-error" class="field-error">([^<]*)</small>`).exec(html)?.[1];

describe('map settings on the map page', () => {
  it('opens for the owner from the map page with the current settings; not for visitors', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const page = await me.browser.request(map.path);
    expect(page.html).toContain(`<a href="${map.path}?settings=1#map-settings">Map settings</a>`);
    expect(settingsOf(page.html)).toBe('');
    const open = settingsOf((await me.browser.request(`${map.path}?settings=1`)).html);
    expect(open).toContain(`action="/maps/${map.id}/settings#map-settings"`);
    expect(open).toContain('name="title" type="text" value="Lakes"');
    expect(open).toContain('name="short_name" type="text" value="lakes"');
    expect(open).toMatch(/<textarea id="settings-description" name="description"[^>]*>Cold \*water\*\.<\/textarea>/);
    expect(open).toMatch(/value="classic" checked/);
    expect(open).toMatch(/value="public" checked/);
    for (const id of ['classic', 'light', 'dark', 'mapbox-streets', 'here-explore', 'esri-world-imagery', 'thunderforest-outdoors']) {
      expect(open).toContain(`<img src="/assets/basemap-previews/${id}.png"`);
    }
    // A commercial basemap names the key it needs and where to add it.
    expect(open).toContain('Needs your Mapbox key: <a href="/settings#provider-keys">add it in Settings</a>');
    const visitor = await new Browser(service.url).request(`${map.path}?settings=1`);
    expect(visitor.status).toBe(200);
    expect(settingsOf(visitor.html)).toBe('');
    expect(visitor.html).not.toContain('Map settings');
  });

  it('saves title, short name, description, basemap and visibility; map/get and map/list show them and the old address leads to the new one', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const saved = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({
      title: 'Mountain lakes',
      short_name: 'Mountain Lakes',
      description: 'Swim **here**.\r\nSecond line.',
      basemap: 'dark',
      visibility: 'unlisted',
    }));
    expect(saved.status).toBe(303);
    const got = await service.call('map/get', me.key, { map_id: map.id });
    expect(got).toMatchObject({ title: 'Mountain lakes', short_name: 'mountain-lakes', description: 'Swim **here**.\nSecond line.', basemap: 'dark', visibility: 'unlisted' });
    // Unlisted now: its address carries its link key.
    const link = new URL(got.url).pathname;
    expect(link).toMatch(new RegExp(`^/${me.username}/mountain-lakes~[A-Z]{22}$`));
    expect(saved.headers.get('location')).toBe(`${link}?settings=saved#map-settings`);
    const listed = await service.call('map/list', me.key, {});
    expect(listed.owner.find((m: { id: number }) => m.id === map.id)).toMatchObject({ title: 'Mountain lakes', short_name: 'mountain-lakes', visibility: 'unlisted' });
    const after = await me.browser.request(`${link}?settings=saved`);
    expect(after.html).toContain('<p class="notice" role="status">Settings saved.</p>');
    expect(after.html).toContain('<h1>Mountain lakes</h1>');
    expect(after.html).toContain('"style":"/basemaps/dark/style.json"');
    const old = await me.browser.request(map.path);
    expect([old.status, old.headers.get('location')]).toEqual([302, link]);
  });

  it('tells the owner when another of their maps has the short name asked for', async () => {
    const me = await account();
    await newMap(me.key, 'Rivers');
    const map = await newMap(me.key, 'Streams');
    const saved = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ title: 'Streams', short_name: 'rivers' }));
    expect(saved.headers.get('location')).toBe(`/${me.username}/rivers-2?settings=saved&wanted=rivers#map-settings`);
    const page = await me.browser.request(`/${me.username}/rivers-2?settings=saved&wanted=rivers`);
    expect(page.html).toContain(`Another of your maps has the short name “rivers”, so this one is at /${me.username}/rivers-2.`);
  });

  it('shares with named viewers and editors: map_members, viewer_users and editor_users, map/list and access follow', async () => {
    const me = await account();
    const [viewer, editor, outsider] = [await account(), await account(), await account()];
    const map = await newMap(me.key, 'Secret lakes', 'private');
    const saved = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({
      title: 'Secret lakes',
      short_name: 'secret-lakes',
      visibility: 'select',
      viewer_users: ` @${viewer.username.toUpperCase()},, `,
      collaborate: 'on',
      editor_users: `${editor.username} ${editor.username}`,
    }));
    expect(saved.status).toBe(303);
    expect(await service.db('map_members').where({ map_id: map.id }).orderBy('role').select('user_id', 'role')).toEqual([
      { user_id: editor.userId, role: 'editor' },
      { user_id: viewer.userId, role: 'viewer' },
    ]);
    expect(await service.call('map/get', me.key, { map_id: map.id })).toMatchObject({
      visibility: 'select',
      collaborate: true,
      viewer_users: [viewer.username],
      editor_users: [editor.username],
    });
    const ids = (list: { id: number }[]) => list.map((m) => m.id);
    expect(ids((await service.call('map/list', viewer.key, {})).viewer)).toContain(map.id);
    expect(ids((await service.call('map/list', editor.key, {})).editor)).toContain(map.id);
    expect((await service.call('map/get', outsider.key, { map_id: map.id })).error_code).toBe('map_not_found');
    expect((await viewer.browser.request(map.path)).status).toBe(200);
    expect((await editor.browser.request(map.path)).html).toContain('"saveUrl":');
    // The form shows them again, and the owner turns collaboration off: the editor stays named but edits no more.
    const form = settingsOf((await me.browser.request(`${map.path}?settings=1`)).html);
    expect(form).toContain(`name="viewer_users" type="text" value="${viewer.username}"`);
    expect(form).toContain(`name="editor_users" type="text" value="${editor.username}"`);
    expect(form).toMatch(/name="collaborate" value="on" checked/);
    await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({
      title: 'Secret lakes',
      short_name: 'secret-lakes',
      visibility: 'select',
      viewer_users: viewer.username,
      editor_users: editor.username,
    }));
    expect(await service.call('map/get', me.key, { map_id: map.id })).toMatchObject({ collaborate: false, editor_users: [editor.username] });
    expect(ids((await service.call('map/list', editor.key, {})).editor)).not.toContain(map.id);
    expect((await editor.browser.request(map.path)).status).toBe(404);
    // Emptied lists leave no member behind.
    await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ title: 'Secret lakes', short_name: 'secret-lakes', visibility: 'private' }));
    expect(await service.db('map_members').where({ map_id: map.id })).toEqual([]);
    expect(await service.call('map/get', me.key, { map_id: map.id })).toMatchObject({ visibility: 'private', viewer_users: [], editor_users: [] });
  });

  it('previews the description as the page renders it, sanitised, saving nothing', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const preview = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({
      title: 'Changed but not saved',
      description: 'A [link](https://example.org) and **bold**.<script>alert(1)</script><img src=x onerror=alert(2)>',
      preview: '1',
    }));
    expect(preview.status).toBe(200);
    const section = settingsOf(preview.html);
    const shown = /aria-label="Description preview">([\s\S]*?)<\/div><\/div>/.exec(section)?.[1];
    expect(shown).toContain('<a target="_blank" rel="nofollow ugc noopener noreferrer" href="https://example.org">link</a> and <strong>bold</strong>.');
    // Raw HTML is shown as text (lib/markdown/render.ts).
    expect(shown).not.toMatch(/<script|<img/);
    expect(shown).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // What was typed stays in the form, as text.
    expect(section).toContain('**bold**.&lt;script>alert(1)&lt;/script>');
    expect(section).toContain('value="Changed but not saved"');
    expect((await service.call('map/get', me.key, { map_id: map.id })).title).toBe('Lakes');
  });

  it('refuses bad fields next to the field, keeps what was typed, and saves nothing', async () => {
    const me = await account();
    const other = await account();
    const map = await newMap(me.key);
    const before = await service.call('map/get', me.key, { map_id: map.id });
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ title: '   ' }, 'settings-title', /^Give the map a title\.$/],
      [{ title: 'x'.repeat(501) }, 'settings-title', /^At most 500 characters \(this has 501\)\.$/],
      [{ short_name: '!!!' }, 'settings-short-name', /^A short name needs at least one letter or digit/],
      [{ short_name: '日本' }, 'settings-short-name', /^A short name needs at least one letter or digit/],
      [{ short_name: 'a'.repeat(201) }, 'settings-short-name', /^At most 200 characters/],
      [{ description: 'nul \u0000 here' }, 'settings-description', /NUL character/],
      [{ basemap: 'nope' }, 'settings-basemap', /^Choose one of the basemaps\.$/],
      [{ visibility: 'everyone' }, 'settings-visibility', /^Choose who can see the map\.$/],
      [{ viewer_users: 'nobody-here-xyz' }, 'settings-viewers', /^There is no user named &quot;nobody-here-xyz&quot;\.$/],
      [{ editor_users: `${other.username}, ghost-one-xyz, ghost-two-xyz` }, 'settings-editors', /^There are no users named &quot;ghost-one-xyz&quot;, &quot;ghost-two-xyz&quot;\.$/],
      [{ editor_users: 'bad!name' }, 'settings-editors', /^&quot;bad!name&quot; is not a username: a username has 2 to 40 letters/],
      [{ editor_users: me.username }, 'settings-editors', /owns this map/],
      [{ editor_users: other.username, viewer_users: other.username }, 'settings-viewers', /is an editor of this map already/],
      [{ viewer_users: Array.from({ length: 101 }, (_, i) => `person${i}`).join(',') }, 'settings-viewers', /^At most 100 people\.$/],
    ];
    for (const [fields, id, message] of cases) {
      const answer = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ title: 'Typed title', ...fields }));
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(errorOf(answer.html, id), JSON.stringify(fields).slice(0, 80)).toMatch(message);
      expect(answer.html).toContain(`aria-describedby="${id === 'settings-short-name' || id === 'settings-description' || id === 'settings-viewers' || id === 'settings-editors' ? `${id}-hint ` : ''}${id}-error" aria-invalid="true"`);
      expect(answer.html).toContain('Nothing was saved: see the messages next to the fields.');
      if (!('title' in fields)) expect(settingsOf(answer.html)).toContain('value="Typed title"');
    }
    expect(await service.call('map/get', me.key, { map_id: map.id })).toEqual(before);
    expect(service.internalErrors).toEqual([]);
  });

  it('lets an editor change the title, description and basemap only; refuses viewers, strangers and the logged-out', async () => {
    const me = await account();
    const [editor, viewer, stranger] = [await account(), await account(), await account()];
    const map = await newMap(me.key, 'Shared lakes', 'private');
    await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({
      title: 'Shared lakes',
      short_name: 'shared-lakes',
      visibility: 'select',
      collaborate: 'on',
      editor_users: editor.username,
      viewer_users: viewer.username,
    }));
    const path = `/${me.username}/shared-lakes`;
    // The editor's form: no short name, visibility or people.
    const form = settingsOf((await editor.browser.request(`${path}?settings=1`)).html);
    expect(form).toContain('name="title"');
    expect(form).not.toMatch(/name="(short_name|visibility|editor_users|viewer_users|sharing)"/);
    expect(form).toContain(`are for its owner, ${me.username}, to change`);
    expect(form).toContain("Needs the owner's Mapbox key.");
    const saved = await editor.browser.submit(`${path}?settings=1`, `/maps/${map.id}/settings`, { title: 'Lakes we share', description: 'By two.', basemap: 'light' });
    expect(saved.headers.get('location')).toBe(`${path}?settings=saved#map-settings`);
    expect(await service.call('map/get', me.key, { map_id: map.id })).toMatchObject({ title: 'Lakes we share', description: 'By two.', basemap: 'light', visibility: 'select', short_name: 'shared-lakes' });
    // The owner's fields from an editor: refused as map/update refuses them.
    const sharing = await editor.browser.submit(`${path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ short_name: 'mine-now', visibility: 'public' }));
    expect(sharing.status).toBe(403);
    expect(sharing.html).toContain('Only the owner may change the visibility or the short name');
    expect((await service.call('map/get', me.key, { map_id: map.id })).visibility).toBe('select');
    // A viewer sees the map but not its settings; a stranger not even the map.
    expect(settingsOf((await viewer.browser.request(`${path}?settings=1`)).html)).toBe('');
    expect((await viewer.browser.submit(path, `/maps/${map.id}/settings`, { title: 'Mine' })).status).toBe(403);
    expect((await stranger.browser.submit('/maps', `/maps/${map.id}/settings`, { title: 'Mine' })).status).toBe(404);
    expect((await stranger.browser.submit('/maps', '/maps/99999999999/settings', { title: 'Mine' })).status).toBe(404);
    const loggedOut = new Browser(service.url);
    const refused = await loggedOut.submit('/login', `/maps/${map.id}/settings`, { title: 'Mine' });
    expect([refused.status, refused.headers.get('location')]).toEqual([302, '/login?next=%2Fmaps']);
    expect((await service.call('map/get', me.key, { map_id: map.id })).title).toBe('Lakes we share');
  });

  it('refuses a post from another site, or without the form token', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const token = /name="_csrf" value="([^"]+)"/.exec((await me.browser.request(`${map.path}?settings=1`)).html)![1]!;
    const crossSite = await me.browser.request(`/maps/${map.id}/settings`, { form: { _csrf: token, ...ownerForm({ title: 'Hijacked' }) }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.html).toContain('This form was refused');
    const otherOrigin = await me.browser.request(`/maps/${map.id}/settings`, { form: { _csrf: token, ...ownerForm({ title: 'Hijacked' }) }, headers: { 'sec-fetch-site': '', origin: 'https://evil.example' } });
    expect(otherOrigin.status).toBe(403);
    const noToken = await me.browser.request(`/maps/${map.id}/settings`, { form: ownerForm({ title: 'Hijacked' }) });
    expect(noToken.status).toBe(403);
    expect((await service.call('map/get', me.key, { map_id: map.id })).title).toBe('Lakes');
  });

  it('answers a form over the size limit with a page saying so', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const huge = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ description: '雪'.repeat(120_000) }));
    expect(huge.status).toBe(413);
    expect(huge.html).toContain('a description has at most 100,000 characters');
    expect(huge.html).toContain(`href="${map.path}?settings=1#map-settings"`);
    // 100,000 characters of three UTF-8 bytes each fit.
    const long = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ description: '雪'.repeat(100_000) }));
    expect(long.status).toBe(303);
    expect(((await service.call('map/get', me.key, { map_id: map.id })).description as string).length).toBe(100_000);
  });

  it('shows each basemap as a small picture; a commercial one drawn with the owner\'s key once saved', async () => {
    const me = await account();
    const map = await newMap(me.key);
    for (const id of ['classic', 'dark', 'mapbox-streets']) {
      const picture = await new Browser(service.url).request(`/assets/basemap-previews/${id}.png`);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/png');
    }
    expect((await new Browser(service.url).request('/assets/basemap-previews/nope.png')).status).toBe(404);
    const png = async (path: string) => {
      const response = await fetch(`${service.url}${path}`, { headers: { cookie: `mps_session=${me.browser.cookie('mps_session')}` } });
      expect(response.status).toBe(200);
      const { data, info } = await sharp(Buffer.from(await response.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, centre: [...data.subarray((80 * info.width + 128) * info.channels, (80 * info.width + 128) * info.channels + 3)] };
    };
    expect((await png('/assets/basemap-previews/classic.png')).width).toBe(256);
    // The owner saves the map platform's key: the chooser says so and draws its tiles (the blue test tiles).
    await me.browser.submit('/settings', '/settings/provider-keys', { kind: 'map_platform', key: OWNER_KEY });
    const form = settingsOf((await me.browser.request(`${map.path}?settings=1`)).html);
    expect(form).toContain(`<img src="/maps/${map.id}/basemap-previews/mapbox-streets.png"`);
    expect(form).toContain('Uses your Mapbox key.');
    expect((await png(`/maps/${map.id}/basemap-previews/mapbox-streets.png`)).centre).toEqual([0x33, 0x66, 0xcc]);
    // Others may not have the owner's key drawn for them.
    expect((await new Browser(service.url).request(`/maps/${map.id}/basemap-previews/mapbox-streets.png`)).status).toBe(404);
    // A basemap chosen on the form is what map/get answers.
    await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, ownerForm({ basemap: 'mapbox-streets' }));
    expect((await service.call('map/get', me.key, { map_id: map.id })).basemap).toBe('mapbox-streets');
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
