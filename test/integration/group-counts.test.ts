// The map page's item list counts each group's items (issue 26, defect 1: every group read "(0)"
// when its id was text, as the editor's New group makes them): numeric and text group ids, through
// map/upload, map/update, map/append and the editor's save.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

const point = (lon: number, properties: Record<string, unknown>) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, 48.85] }, properties });

/** Two groups, one nested in the other, of the given ids: three items in the outer (one of its own), two in the inner. */
const documentWith = (outer: number | string, inner: number | string) => ({
  type: 'FeatureCollection',
  groups: [
    { id: outer, title: 'Outer' },
    { id: inner, title: 'Inner', parent: outer },
  ],
  features: [point(2.35, { title: 'A', group: outer }), point(2.36, { title: 'B', group: inner }), point(2.37, { title: 'C', group: inner }), point(2.38, { title: 'D' })],
});

async function countsOnPage(path: string): Promise<string[]> {
  const page = await new Browser(service.url).request(path);
  expect(page.status).toBe(200);
  return [...page.html.matchAll(/(Outer|Inner|Later) <span class="count">\((\d+)\)<\/span>/g)].map((match) => `${match[1]} ${match[2]}`);
}

describe.each([
  ['numeric', 1, 2],
  ['text', 'g1', 'g2'],
] as const)('group counts with %s ids', (_kind, outer, inner) => {
  it('are right after map/upload, map/update and map/append', async () => {
    const me = await loggedInAccount(service);
    const made = await service.send('map/upload', me.key, { file_type: 'geojson', visibility: 'public', title: 'Groups' }, JSON.stringify(documentWith(outer, inner)));
    expect(made.error).toBeUndefined();
    const path = new URL(made.url as string).pathname;
    expect(await countsOnPage(path)).toEqual(['Outer 3', 'Inner 2']);

    const updated = await service.call('map/update', me.key, { map_id: made.id, geojson: documentWith(outer, inner) });
    expect(updated.error).toBeUndefined();
    expect(await countsOnPage(path)).toEqual(['Outer 3', 'Inner 2']);

    // An appended file's groups come with it.
    const later = typeof outer === 'number' ? 7 : 'g7';
    const appended = await service.send('map/append', me.key, { map_id: made.id, file_type: 'geojson' }, JSON.stringify({ type: 'FeatureCollection', groups: [{ id: later, title: 'Later' }], features: [point(2.39, { title: 'E', group: later }), point(2.4, { title: 'F', group: later })] }));
    expect(appended.error).toBeUndefined();
    expect(await countsOnPage(path)).toEqual(['Outer 3', 'Inner 2', 'Later 2']);
  });

  it('are right after an editor save that adds a group and moves items', async () => {
    const me = await loggedInAccount(service);
    const made = await service.send('map/upload', me.key, { file_type: 'geojson', visibility: 'public', title: 'Saved groups' }, JSON.stringify(documentWith(outer, inner)));
    const path = new URL(made.url as string).pathname;
    const { revision } = await service.db('maps').where({ id: made.id }).first('revision');
    await me.browser.request('/settings');
    const saved = await me.browser.request(`/maps/${made.id}/save`, {
      json: {
        revision: Number(revision),
        features: { added: [{ key: 'new-1', feature: point(2.4, { title: 'New', group: 'later' }) }], changed: [], deleted: [] },
        groups: [
          { id: outer, title: 'Outer' },
          { id: inner, title: 'Inner', parent: outer },
          { id: 'later', title: 'Later' },
        ],
      },
      headers: { 'x-csrf-token': me.browser.cookie('mps_csrf') ?? '' },
    });
    expect(JSON.parse(saved.html)).toMatchObject({ saved: true });
    expect(await countsOnPage(path)).toEqual(['Outer 3', 'Inner 2', 'Later 1']);
  });
});
