// My maps, Explore and deleting a map from the web pages: cards with thumbnails (a private map's
// thumbnail served to its owner's browser session), a lock on private maps, public maps newest
// first by pages, and deletion with a confirmation, by the owner only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

const account = () => loggedInAccount(service);

const upload = async (key: string, title: string, visibility: string) => {
  const answer = await service.send('map/upload', key, { file_type: 'empty', visibility, title });
  expect(answer.error).toBeUndefined();
  return { id: answer.id as number, path: new URL(answer.url as string).pathname };
};

describe('map list pages', () => {
  it('lists my maps as cards with thumbnails and a lock on private ones, and serves their thumbnails to my session', async () => {
    const me = await account();
    const open = await upload(me.key, 'Open walks', 'public');
    const secret = await upload(me.key, 'Secret garden', 'private');
    const page = await me.browser.request('/maps');
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<a href="${open.path}">Open walks</a>`);
    expect(page.html).toContain(`<img src="${secret.path}/thumbnail.png" width="400" height="300" alt loading="lazy"/>`);
    expect(page.html).toMatch(/<svg class="lock" role="img" aria-label="Private"/);
    expect((await me.browser.request(`${secret.path}/thumbnail.png`)).status).toBe(200);
    expect((await new Browser(service.url).request(`${secret.path}/thumbnail.png`)).status).toBe(404);
    expect((await new Browser(service.url).request('/maps')).status).toBe(302);
  });

  it('explores public maps newest first, by pages, without unlisted or private ones', async () => {
    const me = await account();
    const stamp = Date.now().toString(36);
    for (let i = 0; i < 26; i++) await upload(me.key, `Explore ${stamp} ${i}`, 'public');
    await upload(me.key, `Hidden ${stamp}`, 'unlisted');
    const first = await new Browser(service.url).request('/explore');
    expect(first.html.indexOf(`Explore ${stamp} 25`)).toBeGreaterThan(-1);
    expect(first.html.indexOf(`Explore ${stamp} 25`)).toBeLessThan(first.html.indexOf(`Explore ${stamp} 24`));
    expect(first.html).not.toContain(`Hidden ${stamp}`);
    expect(first.html).toContain('href="/explore?page=2" rel="next"');
    const second = await new Browser(service.url).request('/explore?page=2');
    expect(second.html).toContain(`Explore ${stamp} 1<`);
    expect(second.html).toContain('href="/explore?page=1" rel="prev"');
  });

  it('makes a new empty private map from My maps and opens it in the editor', async () => {
    const me = await account();
    const made = await me.browser.submit('/maps', '/maps/new', { title: 'Weekend ideas' });
    expect([made.status, made.headers.get('location')]).toEqual([303, `/${me.username}/weekend-ideas?edit=1`]);
    const map = await service.db('maps').where({ owner_id: me.userId, short_name: 'weekend-ideas' }).first('title', 'visibility', 'feature_count');
    expect(map).toEqual({ title: 'Weekend ideas', visibility: 'private', feature_count: 0 });
    const page = await me.browser.request(`/${me.username}/weekend-ideas?edit=1`);
    expect(page.html).toContain('"saveUrl":"/maps/');
    const untitled = await me.browser.submit('/maps', '/maps/new', { title: '  ' });
    expect(untitled.headers.get('location')).toBe(`/${me.username}/untitled-map?edit=1`);
    expect((await new Browser(service.url).request('/maps/new', { form: { title: 'x' } })).status).toBe(403);
  });

  it('deletes a map after a confirmation, for its owner only', async () => {
    const me = await account();
    const other = await account();
    const map = await upload(me.key, 'Doomed', 'public');
    expect((await other.browser.request(`/maps/${map.id}/delete`)).status).toBe(404);
    const refused = await other.browser.submit('/maps', `/maps/${map.id}/delete`, {});
    expect(refused.status).toBe(404);
    const confirm = await me.browser.request(`/maps/${map.id}/delete`);
    expect(confirm.html).toContain('Delete “Doomed”?');
    const deleted = await me.browser.submit(`/maps/${map.id}/delete`, `/maps/${map.id}/delete`, {});
    // The browser leaves /maps/{id}/delete for My maps, which says what happened once.
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/maps']);
    const listed = await me.browser.request('/maps');
    expect(listed.html).toContain('The map “Doomed” is deleted.');
    expect((await me.browser.request('/maps')).html).not.toContain('is deleted');
    expect(await service.call('map/get', me.key, { map_id: map.id })).toMatchObject({ error_code: 'map_not_found' });
  });

  it('shows a map at its address: title, description, its picture and the item list as a tree with counts', async () => {
    const me = await account();
    const geojson = {
      type: 'FeatureCollection',
      groups: [
        { id: 1, title: 'Food' },
        { id: 2, title: 'Cafés', parent: 1 },
        { id: 3, title: 'Walks' },
      ],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Bistro <b>', group: 1 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.36, 48.85] }, properties: { title: 'Café A', group: 2 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.37, 48.85] }, properties: { title: 'Café B', group: 2, visible: false } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[2.3, 48.8], [2.4, 48.9]] }, properties: { group: 3 } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[2.3, 48.8], [2.31, 48.8], [2.31, 48.81], [2.3, 48.8]]] }, properties: { title: 'Park' } },
      ],
    };
    const answer = await service.send('map/upload', me.key, { file_type: 'geojson', visibility: 'public', title: 'Paris food', description: 'Where we **eat**.\n\n<script>alert(1)</script>' }, JSON.stringify(geojson));
    const path = new URL(answer.url as string).pathname;
    const page = await new Browser(service.url).request(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Paris food</h1>');
    expect(page.html).toContain('<div class="description"><p>Where we <strong>eat</strong>.</p>');
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(page.html).toContain(`<img src="${path}/static.png" width="1200" height="630" alt="Map: Paris food"/>`);
    expect(page.html).toMatch(/Items <span class="count" data-items-count>\(5\)<\/span>/);
    expect(page.html).toMatch(/Food <span class="count">\(3\)<\/span>/); // its own item and its subgroup's two
    expect(page.html).toMatch(/Cafés <span class="count">\(2\)<\/span>/);
    expect(page.html).toMatch(/Walks <span class="count">\(1\)<\/span>/);
    expect(page.html).toContain('Bistro &lt;b>');
    expect(page.html).toMatch(/class="item hidden" data-item-id="\d+" data-title="Café B">.*Café B<\/button><span class="badge">hidden<\/span>/);
    expect(page.html).toContain(`<script type="application/json" id="map-config">{"geojson":"${path}/map.geojson","style":"/basemaps/classic/style.json"}</script>`);
    expect(page.html).toContain('<script type="module" src="/assets/app.js"></script>');
    const data = await fetch(`${service.url}${path}/map.geojson`);
    expect([data.status, data.headers.get('content-type')]).toEqual([200, 'application/geo+json']);
    expect(((await data.json()) as { features: unknown[] }).features).toHaveLength(5);
    const icon = await fetch(`${service.url}/assets/maki/cafe.svg`);
    expect([icon.status, icon.headers.get('content-type'), (await icon.text()).includes('fill="#ffffff"')]).toEqual([200, 'image/svg+xml', true]);
    expect((await fetch(`${service.url}/assets/maki/no-such-icon.svg`)).status).toBe(404);
    expect((await fetch(`${service.url}/assets/maki/..%2Fpackage.json`)).status).toBe(404);
    const app = await fetch(`${service.url}/assets/app.js`);
    expect([app.status, (await app.text()).includes('/assets/maplibre/maplibre-gl.mjs')]).toEqual([200, true]);
    expect(page.html).toContain('Untitled line');
    expect(page.html.indexOf('Food')).toBeLessThan(page.html.indexOf('Cafés'));
  });

  it('answers 404 with a log-in link for a map the visitor may not see, and shows a select map to its viewers', async () => {
    const me = await account();
    const viewer = await account();
    const secret = await upload(me.key, 'Secret', 'private');
    const anonymous = await new Browser(service.url).request(secret.path);
    expect([anonymous.status, anonymous.html.includes(`href="/login?next=${encodeURIComponent(secret.path)}"`)]).toEqual([404, true]);
    expect((await viewer.browser.request(secret.path)).status).toBe(404);
    expect((await viewer.browser.request(`${secret.path}/map.geojson`)).status).toBe(404);
    expect((await me.browser.request(`${secret.path}/map.geojson`)).status).toBe(200);
    expect((await me.browser.request(secret.path)).status).toBe(200);
    await service.db('map_members').insert({ map_id: secret.id, user_id: viewer.userId, role: 'viewer' });
    await service.db('maps').where({ id: secret.id }).update({ visibility: 'select' });
    expect((await viewer.browser.request(secret.path)).status).toBe(200);
    expect((await new Browser(service.url).request(`/${me.username}/no-such-map`)).status).toBe(404);
  });

  it('shares a map: its link and embed codes, /embed/{id} framable with a Play button, and oEmbed for public and unlisted maps', async () => {
    const me = await account();
    const open = await upload(me.key, 'Walks "north" <2>', 'unlisted');
    // An unlisted map's embed names it with its link key, as its link does (unlisted-maps.test.ts).
    const ref = `${open.id}${open.path.slice(open.path.indexOf('~'))}`;
    const page = await me.browser.request(open.path);
    const embedCode = `<iframe src="${service.url}/embed/${ref}" width="768" height="576" title="Walks &quot;north&quot; &lt;2>" style="border:0" loading="lazy" allowfullscreen></iframe>`;
    // The page shows the codes as text (escaped once more in the HTML).
    expect(page.html).toContain(embedCode.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'));
    expect(page.html).toContain(`/embed/${ref}?panel=1`);
    expect(page.html).toContain(`<link rel="alternate" type="application/json+oembed" href="${service.url}/oembed?url=${encodeURIComponent(`${service.url}${open.path}`)}"`);

    const embed = await new Browser(service.url).request(`/embed/${ref}`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(embed.html).toContain(`<img src="${open.path}/static.png"`);
    expect(embed.html).toContain('class="play"');
    expect(embed.html).not.toContain('class="side-panel"');
    expect((await new Browser(service.url).request(`/embed/${ref}?panel=1`)).html).toContain('class="side-panel"');

    const secret = await upload(me.key, 'Secret', 'private');
    expect((await new Browser(service.url).request(`/embed/${secret.id}`)).status).toBe(404);
    expect((await new Browser(service.url).request('/embed/nonsense')).status).toBe(404);

    const oembed = await fetch(`${service.url}/oembed?url=${encodeURIComponent(`${service.url}${open.path}`)}&maxwidth=384`);
    expect(oembed.status).toBe(200);
    const answer = (await oembed.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ type: 'rich', version: '1.0', title: 'Walks "north" <2>', author_name: me.username, width: 384, height: 288, thumbnail_url: `${service.url}${open.path}/thumbnail.png` });
    expect(answer.html).toBe(embedCode.replace('width="768" height="576"', 'width="384" height="288"'));
    expect((await fetch(`${service.url}/oembed?url=${encodeURIComponent(`${service.url}${secret.path}`)}`)).status).toBe(404);
    expect((await fetch(`${service.url}/oembed?url=${encodeURIComponent(`https://elsewhere.example${open.path}`)}`)).status).toBe(404);
    expect((await fetch(`${service.url}/oembed?url=${encodeURIComponent(`${service.url}${open.path}`)}&format=xml`)).status).toBe(501);
  });
});
