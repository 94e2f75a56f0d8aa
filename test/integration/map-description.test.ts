// A map's description on its page (issue 24, defects 1 and 8), through the real service and
// PostgreSQL: every description the API accepts is rendered once when it is saved (map/upload,
// map/update, the settings form), in the renderer's thread within its budget, and kept; the page
// serves the kept HTML (a map of before migration 032 has it rendered at its first view, once);
// the settings preview takes the same bounded path; a description cannot stand in for the page's
// configuration. Speed is the bench's (`npm run bench -- description`): no timed assertion here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORST_DESCRIPTIONS } from '../support/worstDescriptions.js';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

async function newMap(key: string, description = '', visibility = 'public') {
  const answer = await service.send('map/upload', key, { file_type: 'empty', visibility, title: 'Walks', description });
  expect(answer.error).toBeUndefined();
  return { id: answer.id as number, path: new URL(answer.url as string).pathname };
}

const descriptionOf = (html: string) => /<div class="description">([\s\S]*?)<\/div><\/header>/.exec(html)?.[1];
const storedHtml = async (id: number) => (await service.db('maps').where({ id }).first('description_html')).description_html as string | null;

describe('a map description on its page', () => {
  it('renders each of the worst descriptions the API accepts when it is saved; the page shows the kept HTML while /healthz answers', async () => {
    const me = await service.newUser();
    const map = await newMap(me.key);
    for (const [name, description] of Object.entries(WORST_DESCRIPTIONS)) {
      const saved = await service.call('map/update', me.key, { map_id: map.id, description });
      expect(saved.error, name).toBeUndefined();
      expect(await storedHtml(map.id), name).not.toBeNull();
      const [page, health] = await Promise.all([new Browser(service.url).request(map.path), fetch(`${service.url}/healthz`)]);
      expect([page.status, health.status], name).toEqual([200, 200]);
      expect(descriptionOf(page.html), name).toBe(await storedHtml(map.id));
    }
    // The bounds at work: a paragraph of 100,000 delimiters is its text; 8 blockquotes at most.
    await service.call('map/update', me.key, { map_id: map.id, description: '_a'.repeat(50_000) });
    const underscores = descriptionOf((await new Browser(service.url).request(map.path)).html)!;
    expect(underscores).not.toContain('<em>');
    expect(underscores.startsWith('<p>_a_a_a')).toBe(true);
    await service.call('map/update', me.key, { map_id: map.id, description: '>'.repeat(100_000) });
    expect(descriptionOf((await new Browser(service.url).request(map.path)).html)!.match(/<blockquote>/g)).toHaveLength(8);
  });

  it('renders the description given to map/upload when the map is made', async () => {
    const me = await service.newUser();
    const map = await newMap(me.key, 'A *walk* by the river');
    expect(await storedHtml(map.id)).toBe('<p>A <em>walk</em> by the river</p>\n');
  });

  it('renders a description not rendered since it was saved (a map of before migration 032) at its first view, once, and keeps it', async () => {
    const me = await service.newUser();
    const map = await newMap(me.key, 'Old **map**');
    await service.db('maps').where({ id: map.id }).update({ description_html: null });
    const views = await Promise.all([1, 2, 3].map(() => new Browser(service.url).request(map.path)));
    for (const view of views) expect(descriptionOf(view.html)).toBe('<p>Old <strong>map</strong></p>\n');
    expect(await storedHtml(map.id)).toBe('<p>Old <strong>map</strong></p>\n');
  });

  it('previews the worst description in the settings form through the same bounded path, saving nothing', async () => {
    const me = await loggedInAccount(service);
    const map = await newMap(me.key, 'Kept');
    const preview = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, {
      sharing: '1', title: 'Walks', short_name: 'walks', description: '>'.repeat(100_000), basemap: 'classic', visibility: 'public', editor_users: '', viewer_users: '', preview: '1',
    });
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('aria-label="Description preview"><div class="description"><blockquote>');
    expect((await service.call('map/get', me.key, { map_id: map.id })).description).toBe('Kept');
  });

  it('saves through the settings form with the HTML rendered', async () => {
    const me = await loggedInAccount(service);
    const map = await newMap(me.key, 'Before');
    const saved = await me.browser.submit(`${map.path}?settings=1`, `/maps/${map.id}/settings`, {
      sharing: '1', title: 'Walks', short_name: 'walks', description: 'After *this*', basemap: 'classic', visibility: 'public', editor_users: '', viewer_users: '',
    });
    expect(saved.status).toBe(303);
    expect(await storedHtml(map.id)).toBe('<p>After <em>this</em></p>\n');
  });

  it("cannot take over the page: a description's data-* attributes are gone and the page's configuration stays in its head, naming this map only", async () => {
    const owner = await service.newUser();
    const other = await newMap(owner.key, '', 'public');
    const takeover = `<div data-map-geojson="${other.path}/map.geojson" data-save-url="/maps/${other.id}/save" data-csrf="x" id="map-config" class="map-view">Hello</div>\n\n<figure class="map-view" data-map-style="/evil.json"></figure>`;
    const map = await newMap(owner.key, takeover);
    const page = await new Browser(service.url).request(map.path);
    const description = descriptionOf(page.html)!;
    expect(description).toContain('Hello');
    expect(description).not.toMatch(/<[^>]*\s(?:data-[a-z-]+|id|class|style)=/);
    expect(description).not.toMatch(/<(?:div|figure)/);
    const configs = [...page.html.matchAll(/<script type="application\/json" id="map-config">([^<]*)<\/script>/g)];
    expect(configs).toHaveLength(1);
    expect(JSON.parse(configs[0]![1]!)).toEqual({ geojson: `${map.path}/map.geojson`, style: '/basemaps/classic/style.json' });
    expect(page.html.indexOf('id="map-config"')).toBeLessThan(page.html.indexOf('<body'));
  });
});
