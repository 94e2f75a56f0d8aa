// A private map's Share section and page say that nobody else can open it (issue 26, defect 5),
// and offer its owner to make it unlisted or public in one step (POST /maps/{id}/visibility, the
// form's CSRF check, the owner only); an open map's page says nothing of the kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

async function newMap(key: string, visibility: string) {
  const made = await service.send('map/upload', key, { file_type: 'empty', visibility, title: 'Secret spots' });
  expect(made.error).toBeUndefined();
  return { id: made.id as number, path: new URL(made.url as string).pathname };
}

describe('a private map’s Share', () => {
  it('says nobody else can open it, and lets its owner make it unlisted or public', async () => {
    const me = await loggedInAccount(service);
    const map = await newMap(me.key, 'private');
    const page = await me.browser.request(map.path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<span class="badge warn">Private</span>');
    expect(page.html).toContain('This map is private: only its owner and editors can open it.');
    expect(page.html).toContain('aria-describedby="share-closed"');
    expect(page.html).toContain(`action="/maps/${map.id}/visibility"`);
    expect(page.html).toContain('<button type="button" class="secondary copy" id="share-link-copy" data-copy="share-link" aria-labelledby="share-link-copy share-link-label" hidden>');
    // Indeed: a stranger's embed is a 404.
    expect((await fetch(`${service.url}/embed/${map.id}`)).status).toBe(404);

    const opened = await me.browser.submit(map.path, `/maps/${map.id}/visibility`, { visibility: 'unlisted' });
    expect(opened.status).toBe(303);
    // An unlisted map's address carries its link key.
    expect(opened.headers.get('location')).toMatch(new RegExp(`^${map.path}~[A-Z]{22}#share$`));
    expect((await service.call('map/get', me.key, { map_id: map.id })).visibility).toBe('unlisted');
    const after = await me.browser.request(opened.headers.get('location')!.replace('#share', ''));
    expect(after.html).not.toContain('This map is private');
    expect(after.html).toContain('Only people who have this link or an embed code can open this map.');
    expect(after.html).not.toContain(`action="/maps/${map.id}/visibility"`);

    await service.call('map/update', me.key, { map_id: map.id, visibility: 'private' });
    expect((await me.browser.submit(map.path, `/maps/${map.id}/visibility`, { visibility: 'public' })).status).toBe(303);
    expect((await service.call('map/get', me.key, { map_id: map.id })).visibility).toBe('public');
  });

  it('refuses anything but unlisted or public, another account, and a post without the form token', async () => {
    const me = await loggedInAccount(service);
    const map = await newMap(me.key, 'private');
    const odd = await me.browser.submit(map.path, `/maps/${map.id}/visibility`, { visibility: 'private' });
    expect(odd.status).toBe(400);
    expect(odd.html).toContain('Choose to make the map unlisted or public.');
    // Someone else: the map is not there for them.
    const other = await loggedInAccount(service);
    const stranger = await other.browser.submit('/maps', `/maps/${map.id}/visibility`, { visibility: 'public' });
    expect(stranger.status).toBe(404);
    // No token: refused before anything.
    const forged = await new Browser(service.url).request(`/maps/${map.id}/visibility`, { form: { visibility: 'public' } });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect((await service.call('map/get', me.key, { map_id: map.id })).visibility).toBe('private');
  });

  it('says nothing of the kind on a public map’s page', async () => {
    const me = await loggedInAccount(service);
    const map = await newMap(me.key, 'public');
    const page = await me.browser.request(map.path);
    expect(page.html).not.toContain('badge warn');
    expect(page.html).not.toContain('share-closed');
  });
});
