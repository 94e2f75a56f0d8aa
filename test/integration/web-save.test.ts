// The web editor's save (POST /maps/{id}/save) through the whole service: only the changes, at a
// revision; others' saves in between merge unless both changed the same item (a conflict, nothing
// saved); groups merge by id; a whole-content map/update in between conflicts with any item a save
// changes; who may save; the CSRF check; bad input refused with a clear error; a save asks for a
// new static image.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, collaborationMap, loggedInAccount } from './webClient.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

type Answer = Record<string, unknown>;

const account = () => loggedInAccount(service);

/** Posts a save as the map's page does: JSON, the browser's form token in X-CSRF-Token. */
async function save(browser: Browser, mapId: number, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; answer: Answer }> {
  if (!browser.cookie('mps_csrf')) await browser.request('/settings');
  const response = await browser.request(`/maps/${mapId}/save`, { json: body, headers: { 'x-csrf-token': browser.cookie('mps_csrf') ?? '', ...headers } });
  return { status: response.status, answer: JSON.parse(response.html) as Answer };
}

const point = (lon: number, lat: number, properties: Record<string, unknown> = {}) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties });

async function newMap(key: string) {
  const geojson = {
    type: 'FeatureCollection',
    groups: [{ id: 1, title: 'Cafés' }],
    features: [
      { ...point(2.35, 48.85, { title: 'One', group: 1 }), id: 1 },
      { ...point(2.36, 48.86, { title: 'Two' }), id: 2 },
      { ...point(2.37, 48.87, { title: 'Three' }), id: 3 },
    ],
  };
  const answer = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private', title: 'Saved' }, JSON.stringify(geojson));
  expect(answer.error).toBeUndefined();
  const id = answer.id as number;
  const row = await service.db('maps').where({ id }).first('revision');
  return { id, revision: Number(row.revision) };
}

const documentOf = async (key: string, mapId: number) => {
  const answer = await service.call('map/get', key, { map_id: mapId });
  return answer.geojson as { groups: { id: unknown; title: string }[]; features: { id: number; properties: Record<string, unknown> }[] };
};
const titles = (doc: { features: { properties: Record<string, unknown> }[] }) => doc.features.map((f) => f.properties.title);

describe('web saves', () => {
  it('writes only the changes at the revision: new items get ids, changed and deleted ones apply, groups too, and the image is refreshed', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const { status, answer } = await save(me.browser, map.id, {
      revision: map.revision,
      features: {
        added: [{ key: 'new-1', feature: point(2.4, 48.9, { title: 'Four', group: 'walks' }) }],
        changed: [{ ...point(2.351, 48.851, { title: 'One, moved', group: 1 }), id: 1 }],
        deleted: [3],
      },
      groups: [{ id: 1, title: 'Cafés' }, { id: 'walks', title: 'Walks' }],
    });
    expect(status).toBe(200);
    expect(answer).toMatchObject({ saved: true, revision: map.revision + 1, ids: { 'new-1': 4 }, merged: false, counts: { added: 1, changed: 1, deleted: 1 }, image: 'refreshing' });
    const doc = await documentOf(me.key, map.id);
    expect(titles(doc)).toEqual(['One, moved', 'Two', 'Four']);
    expect(doc.groups.map((g) => g.title)).toEqual(['Cafés', 'Walks']);
    expect(doc.features[2]).toMatchObject({ id: 4, properties: { group: 'walks' } });
    // The save asked the map-image workflow for a render (the worker here renders it).
    await expect.poll(async () => (await service.db('maps').where({ id: map.id }).first('image_files')).image_files !== null, { timeout: 30_000 }).toBe(true);
  });

  it("merges two people's saves made on the same revision when they touched different items, groups included", async () => {
    const me = await account();
    const map = await newMap(me.key);
    const first = await save(me.browser, map.id, {
      revision: map.revision,
      features: { changed: [{ ...point(2.35, 48.85, { title: 'One by me', group: 1 }), id: 1 }], added: [{ key: 'a', feature: point(1, 1, { title: 'Mine' }) }] },
      groups: [{ id: 1, title: 'Cafés' }, { id: 'mine', title: 'My group' }],
    });
    expect(first.answer.saved).toBe(true);
    // A second tab still on the first revision.
    const second = await save(me.browser, map.id, {
      revision: map.revision,
      features: { changed: [{ ...point(2.36, 48.86, { title: 'Two by the other tab' }), id: 2 }], added: [{ key: 'a', feature: point(2, 2, { title: 'Theirs' }) }] },
      groups: [{ id: 1, title: 'Cafés' }, { id: 'theirs', title: 'Their group' }],
    });
    expect(second.status).toBe(200);
    expect(second.answer).toMatchObject({ saved: true, revision: map.revision + 2, merged: true, ids: { a: 5 } });
    const doc = await documentOf(me.key, map.id);
    expect(titles(doc)).toEqual(['One by me', 'Two by the other tab', 'Three', 'Mine', 'Theirs']);
    expect(doc.groups.map((g) => g.title)).toEqual(['Cafés', 'Their group', 'My group']);
  });

  it('answers a conflict for an item both changed, or one changed that the other deleted, and saves nothing; saving again on the new revision works', async () => {
    const me = await account();
    const map = await newMap(me.key);
    expect((await save(me.browser, map.id, { revision: map.revision, features: { changed: [{ ...point(0, 0, { title: 'One by A' }), id: 1 }], deleted: [2] } })).status).toBe(200);
    const stale = await save(me.browser, map.id, {
      revision: map.revision,
      features: { changed: [{ ...point(5, 5, { title: 'One by B' }), id: 1 }, { ...point(6, 6, { title: 'Two by B' }), id: 2 }, { ...point(7, 7, { title: 'Three by B' }), id: 3 }] },
    });
    expect(stale.status).toBe(409);
    expect(stale.answer).toMatchObject({ error_code: 'save_conflict', revision: map.revision + 1 });
    expect(stale.answer.error).toContain('nothing was saved');
    expect(stale.answer.conflicts).toEqual([
      { id: 1, mine: 'changed', theirs: { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [0, 0] }, properties: { title: 'One by A' } } },
      { id: 2, mine: 'changed', theirs: null },
    ]);
    expect(titles(await documentOf(me.key, map.id))).toEqual(['One by A', 'Three']);
    // Resolved (B keeps its own 'One', drops its 'Two'), on the revision the conflict named.
    const resolved = await save(me.browser, map.id, {
      revision: stale.answer.revision,
      features: { changed: [{ ...point(5, 5, { title: 'One by B' }), id: 1 }, { ...point(7, 7, { title: 'Three by B' }), id: 3 }] },
    });
    expect(resolved.answer).toMatchObject({ saved: true, merged: false });
    expect(titles(await documentOf(me.key, map.id))).toEqual(['One by B', 'Three by B']);
  });

  it('conflicts with any changed item after a whole-content map/update, and refuses deleting a group others put items in', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const replaced = { type: 'FeatureCollection', groups: [{ id: 1, title: 'Cafés' }], features: [{ ...point(9, 9, { title: 'Replaced', group: 1 }), id: 1 }] };
    expect((await service.call('map/update', me.key, { map_id: map.id, geojson: replaced })).error).toBeUndefined();
    const stale = await save(me.browser, map.id, { revision: map.revision, features: { changed: [{ ...point(1, 1, { title: 'Edited', group: 1 }), id: 1 }] } });
    expect([stale.status, (stale.answer.conflicts as { id: number }[]).map((c) => c.id)]).toEqual([409, [1]]);
    // The group 'Cafés' holds item 1, which this save neither moves nor deletes.
    const now = Number((await service.db('maps').where({ id: map.id }).first('revision')).revision);
    const dropGroup = await save(me.browser, map.id, { revision: now, groups: [], deletedGroups: [1] });
    expect(dropGroup.status).toBe(409);
    expect(dropGroup.answer.group_conflicts).toEqual([{ group: 1, items: 1 }]);
    const withItems = await save(me.browser, map.id, { revision: now, groups: [], deletedGroups: [1], features: { deleted: [1] } });
    expect(withItems.answer).toMatchObject({ saved: true, counts: { deleted: 1 } });
    expect((await documentOf(me.key, map.id)).groups).toEqual([]);
  });

  it('lets the owner and, while collaboration is on, editors save; not viewers, other accounts or anyone logged out', async () => {
    let map!: Awaited<ReturnType<typeof newMap>>;
    const { editor, viewer, stranger } = await collaborationMap(service, async (ownerKey) => (map = await newMap(ownerKey)).id);
    const body = (revision: number) => ({ revision, features: { added: [{ key: 'x', feature: point(3, 3) }] } });
    const editorSave = await save(editor.browser, map.id, body(map.revision));
    expect([editorSave.status, editorSave.answer.saved]).toEqual([200, true]);
    expect((await save(viewer.browser, map.id, body(map.revision))).answer).toMatchObject({ error_code: 'permission_denied' });
    const refused = await save(stranger.browser, map.id, body(map.revision));
    expect([refused.status, refused.answer.error_code]).toEqual([404, 'map_not_found']);
    await service.db('maps').where({ id: map.id }).update({ collaborate: false });
    // Collaboration off: an editor is no longer one (nor a viewer of this select map: the API's rules).
    const off = await save(editor.browser, map.id, body(map.revision + 1));
    expect([off.status, off.answer.error_code]).toEqual([404, 'map_not_found']);
    await service.db('maps').where({ id: map.id }).update({ visibility: 'public' });
    const publicOff = await save(editor.browser, map.id, body(map.revision + 1));
    expect([publicOff.status, publicOff.answer.error_code]).toEqual([403, 'permission_denied']);
    const anonymous = new Browser(service.url);
    const loggedOut = await save(anonymous, map.id, body(map.revision + 1));
    expect([loggedOut.status, loggedOut.answer.error_code]).toEqual([403, 'permission_denied']);
  });

  it('refuses a save from another site or without the form token', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const body = { revision: map.revision, features: { deleted: [1] } };
    expect((await save(me.browser, map.id, body, { 'x-csrf-token': 'guess' })).status).toBe(403);
    expect((await save(me.browser, map.id, body, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(titles(await documentOf(me.key, map.id))).toEqual(['One', 'Two', 'Three']);
  });

  it('changes and deletes a feature whose id is 0, as the API allows ids from 0', async () => {
    const me = await account();
    const geojson = { type: 'FeatureCollection', features: [{ ...point(1, 1, { title: 'Zero' }), id: 0 }, { ...point(2, 2, { title: 'One' }), id: 1 }] };
    const map = await service.send('map/upload', me.key, { file_type: 'geojson', visibility: 'private' }, JSON.stringify(geojson));
    const revision = Number((await service.db('maps').where({ id: map.id }).first('revision')).revision);
    const renamed = await save(me.browser, map.id as number, { revision, features: { changed: [{ ...point(1, 1, { title: 'Zero again' }), id: 0 }] } });
    expect(renamed.answer).toMatchObject({ saved: true, counts: { changed: 1 } });
    const removed = await save(me.browser, map.id as number, { revision: revision + 1, features: { deleted: [0] } });
    expect(removed.answer).toMatchObject({ saved: true, counts: { deleted: 1 } });
    expect(titles(await documentOf(me.key, map.id as number))).toEqual(['One']);
  });

  it('refuses bad input with a clear error and saves nothing', async () => {
    const me = await account();
    const map = await newMap(me.key);
    const cases: [unknown, number, string, string][] = [
      [{ revision: map.revision, features: { added: [{ key: 'a', feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [500, 0] } } }] } }, 400, 'invalid_geojson', 'longitude'],
      [{ revision: map.revision, features: { changed: [{ ...point(1, 1, { group: 'nope' }), id: 1 }] } }, 400, 'invalid_geojson', 'group'],
      [{ revision: map.revision, features: { changed: [point(1, 1)] } }, 400, 'invalid_geojson', '"id"'],
      [{ revision: map.revision, features: { changed: [{ ...point(1, 1), id: 1 }], deleted: [1] } }, 400, 'invalid_geojson', 'both changed and deleted'],
      [{ revision: map.revision, features: { added: [{ key: 'a', feature: point(1, 1) }, { key: 'a', feature: point(2, 2) }] } }, 400, 'invalid_geojson', 'same key'],
      [{ revision: -1 }, 400, 'invalid_arguments', 'revision'],
      [{ revision: map.revision, extra: true }, 400, 'invalid_arguments', 'extra'],
      [{ revision: map.revision, features: { deleted: Array.from({ length: 50_001 }, (_, i) => i + 1) } }, 400, 'invalid_arguments', 'at most 50,000'],
    ];
    for (const [body, status, code, words] of cases) {
      const { status: got, answer } = await save(me.browser, map.id, body);
      expect([got, answer.error_code]).toEqual([status, code]);
      expect(answer.error).toContain(words);
    }
    const notJson = await fetch(`${service.url}/maps/${map.id}/save`, {
      method: 'POST',
      headers: {
        cookie: `mps_session=${me.browser.cookie('mps_session')}; mps_csrf=${me.browser.cookie('mps_csrf')}`,
        'sec-fetch-site': 'same-origin',
        'x-csrf-token': me.browser.cookie('mps_csrf')!,
        'content-type': 'application/json',
      },
      body: '{"revision": 1, "features": {',
    });
    expect([notJson.status, ((await notJson.json()) as Answer).error_code]).toEqual([400, 'invalid_json']);
    expect(titles(await documentOf(me.key, map.id))).toEqual(['One', 'Two', 'Three']);
    expect(Number((await service.db('maps').where({ id: map.id }).first('revision')).revision)).toBe(map.revision);
  });
});
