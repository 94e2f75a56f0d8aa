// A map's versions through the whole service: every content write (upload, web save, append,
// whole-content update, restore) keeps a version; each version put together again is exactly the
// document map/get gave right after that write; a restore brings one back as a new version (and
// editors who changed what it brought back get a conflict); who may see and restore; retention
// (the newest N and the young ones kept, the rest pruned by the hourly cleanup); media a kept
// version shows is not deleted by the media cleanup.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneVersions } from '../../db/mapVersions.js';
import { deleteUnusedMedia } from '../../db/unusedMedia.js';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

type Answer = Record<string, unknown>;
type Doc = { groups?: unknown[]; features: { id: number; geometry: unknown; properties: Record<string, unknown> }[] };
type Version = { id: number; revision: number; kind: string; saved_by: string | null; added: number; changed: number; deleted: number; feature_count: number; restored_revision?: number };

const account = () => loggedInAccount(service, { formToken: true });

const csrf = (browser: Browser) => ({ 'x-csrf-token': browser.cookie('mps_csrf') ?? '' });

async function json(browser: Browser, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; answer: Answer }> {
  const response = await browser.request(path, { ...init, headers: { ...csrf(browser), ...init.headers } });
  return { status: response.status, answer: JSON.parse(response.html) as Answer };
}

const point = (lon: number, lat: number, properties: Record<string, unknown> = {}) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties });
const documentOf = async (key: string, mapId: number) => (await service.call('map/get', key, { map_id: mapId })).geojson as Doc;
const revisionOf = async (mapId: number) => Number((await service.db('maps').where({ id: mapId }).first('revision')).revision);
const versionsOf = async (browser: Browser, mapId: number) => (await json(browser, `/maps/${mapId}/versions`)).answer.versions as Version[];
const versionDoc = async (browser: Browser, mapId: number, versionId: number) => {
  const response = await browser.request(`/maps/${mapId}/versions/${versionId}/map.geojson`);
  expect(response.status).toBe(200);
  return JSON.parse(response.html) as Doc;
};

async function save(browser: Browser, mapId: number, changes: Answer) {
  const { status, answer } = await json(browser, `/maps/${mapId}/save`, { json: { revision: await revisionOf(mapId), ...changes } });
  expect([status, answer.error]).toEqual([200, undefined]);
  return answer;
}

async function upload(key: string, features: unknown[], groups: unknown[] = []) {
  const answer = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private', title: 'Versions' }, JSON.stringify({ type: 'FeatureCollection', groups, features }));
  expect(answer.error).toBeUndefined();
  return answer.id as number;
}

describe('map versions', () => {
  it('puts every kind of write back together exactly, newest first in the list', async () => {
    const me = await account();
    const mapId = await upload(me.key, [{ ...point(1, 1, { title: 'One', group: 1 }), id: 1 }, { ...point(2, 2, { title: 'Two' }), id: 2 }, { ...point(3, 3, { title: 'Three' }), id: 3 }], [{ id: 1, title: 'Cafés' }]);
    const docs: Doc[] = [await documentOf(me.key, mapId)];
    // A web save: one changed, one deleted, one added, the groups changed.
    await save(me.browser, mapId, {
      features: { added: [{ key: 'n', feature: point(4, 4, { title: 'Four', group: 'walks' }) }], changed: [{ ...point(1.5, 1.5, { title: 'One, moved', group: 1 }), id: 1 }], deleted: [3] },
      groups: [{ id: 1, title: 'Cafés' }, { id: 'walks', title: 'Walks' }],
    });
    docs.push(await documentOf(me.key, mapId));
    // An API append (new ids, a new group from the file).
    const appended = await service.send('map/append', me.key, { map_id: mapId, file_type: 'geojson' }, JSON.stringify({ type: 'FeatureCollection', groups: [{ id: 7, title: 'Appended' }], features: [point(5, 5, { title: 'Five', group: 7 }), point(6, 6, { title: 'Six' })] }));
    expect(appended.error).toBeUndefined();
    docs.push(await documentOf(me.key, mapId));
    // A whole new content through map/update: an id reused with other content, others gone, an id never seen.
    const replaced = await service.call('map/update', me.key, { map_id: mapId, geojson: { type: 'FeatureCollection', features: [{ ...point(9, 9, { title: 'Two, replaced' }), id: 2 }, { ...point(8, 8, { title: 'Eight' }), id: 40 }] } });
    expect(replaced.error).toBeUndefined();
    docs.push(await documentOf(me.key, mapId));
    // Another web save after it: the reused id changed again, a new one.
    await save(me.browser, mapId, { features: { added: [{ key: 'm', feature: point(7, 7, { title: 'Seven' }) }], changed: [{ ...point(9.5, 9.5, { title: 'Two, again' }), id: 2 }], deleted: [] } });
    docs.push(await documentOf(me.key, mapId));

    const versions = await versionsOf(me.browser, mapId);
    expect(versions.map((v) => v.kind)).toEqual(['save', 'replace', 'append', 'save', 'create']);
    expect(versions.map((v) => v.saved_by)).toEqual(Array(5).fill(me.username));
    expect(versions.map((v) => [v.added, v.changed, v.deleted, v.feature_count])).toEqual([
      [1, 1, 0, 3],
      [2, 0, 5, 2],
      [2, 0, 0, 5],
      [1, 1, 1, 3],
      [3, 0, 0, 3],
    ]);
    const oldestFirst = [...versions].reverse();
    for (const [index, version] of oldestFirst.entries()) {
      const doc = await versionDoc(me.browser, mapId, version.id);
      expect(doc, `version ${index + 1} (${version.kind})`).toEqual(docs[index]);
    }
  });

  it('lists the versions a page at a time, older ones with ?before=, and refuses a bad page', async () => {
    const me = await account();
    const mapId = await upload(me.key, [{ ...point(1, 1, { title: 'One' }), id: 1 }]);
    for (const title of ['A', 'B', 'C', 'D']) await save(me.browser, mapId, { features: { added: [], changed: [{ ...point(1, 1, { title }), id: 1 }], deleted: [] } });
    const all = await versionsOf(me.browser, mapId);
    expect(all.map((v) => v.kind)).toEqual(['save', 'save', 'save', 'save', 'create']);
    expect((await json(me.browser, `/maps/${mapId}/versions`)).answer.more).toBe(false);

    // Pages of two, each older than the last one's oldest: together the whole list, once each.
    const pages: { versions: Version[]; more: boolean }[] = [];
    let before: number | undefined;
    do {
      const { status, answer } = await json(me.browser, `/maps/${mapId}/versions?limit=2${before === undefined ? '' : `&before=${before}`}`);
      expect(status).toBe(200);
      pages.push(answer as unknown as { versions: Version[]; more: boolean });
      before = pages.at(-1)!.versions.at(-1)?.revision;
    } while (pages.at(-1)!.more);
    expect(pages.map((page) => [page.versions.length, page.more])).toEqual([[2, true], [2, true], [1, false]]);
    expect(pages.flatMap((page) => page.versions)).toEqual(all);
    // Older than the first version: none.
    expect((await json(me.browser, `/maps/${mapId}/versions?before=${all.at(-1)!.revision}`)).answer).toEqual({ more: false, versions: [] });

    for (const query of ['limit=0', 'limit=201', 'limit=2.5', 'before=0', 'before=abc', 'before=-3', 'before=1&before=2']) {
      const { status, answer } = await json(me.browser, `/maps/${mapId}/versions?${query}`);
      expect([query, status, answer.error_code]).toEqual([query, 400, 'invalid_arguments']);
      expect(answer.error).toMatch(/^(limit must be a whole number from 1 to 200|before must be a whole number of 1 or more)\.$/);
    }
  });

  it('restores a version as a new version, and an editor who changed what came back gets a conflict', async () => {
    const me = await account();
    const mapId = await upload(me.key, [{ ...point(1, 1, { title: 'One' }), id: 1 }, { ...point(2, 2, { title: 'Two' }), id: 2 }]);
    await save(me.browser, mapId, { features: { added: [], changed: [{ ...point(1, 1, { title: 'One, renamed' }), id: 1 }], deleted: [2] } });
    const staleRevision = await revisionOf(mapId);
    await save(me.browser, mapId, { features: { added: [{ key: 'x', feature: point(3, 3, { title: 'Three' }) }], changed: [], deleted: [] } });
    const beforeRestore = await documentOf(me.key, mapId);
    const [latest, , first] = await versionsOf(me.browser, mapId);
    expect(first!.kind).toBe('create');

    const restored = await json(me.browser, `/maps/${mapId}/versions/${first!.id}/restore`, { method: 'POST' });
    expect(restored.status).toBe(200);
    expect(restored.answer).toMatchObject({ restored: true, added: 1, changed: 1, deleted: 1, image: 'refreshing' });
    const now = await documentOf(me.key, mapId);
    expect(now).toEqual(await versionDoc(me.browser, mapId, first!.id)); // the same ids, order and content as at first
    expect(now.features.map((f) => [f.id, f.properties.title])).toEqual([[1, 'One'], [2, 'Two']]);
    const versions = await versionsOf(me.browser, mapId);
    expect(versions[0]).toMatchObject({ kind: 'restore', restored_revision: first!.revision, feature_count: 2 });
    // The version before the restore is still there to go back to.
    expect(await versionDoc(me.browser, mapId, latest!.id)).toEqual(beforeRestore);

    // An editor's tab opened before the restore changed the item the restore brought back.
    const conflict = await json(me.browser, `/maps/${mapId}/save`, { json: { revision: staleRevision, features: { added: [], changed: [{ ...point(1, 1, { title: 'Mine' }), id: 1 }], deleted: [] } } });
    expect(conflict.status).toBe(409);
    expect(conflict.answer).toMatchObject({ error_code: 'save_conflict', conflicts: [{ id: 1, mine: 'changed', theirs: { properties: { title: 'One' } } }] });

    // Restoring the map as it is now, and a version that is not there: clear refusals.
    const current = (await versionsOf(me.browser, mapId))[0]!;
    expect(await json(me.browser, `/maps/${mapId}/versions/${current.id}/restore`, { method: 'POST' })).toMatchObject({ status: 400, answer: { error_code: 'invalid_arguments', error: expect.stringContaining('nothing to restore') } });
    expect(await json(me.browser, `/maps/${mapId}/versions/999999999/restore`, { method: 'POST' })).toMatchObject({ status: 400, answer: { error: expect.stringContaining('no such version') } });
    expect(await json(me.browser, `/maps/${mapId}/versions/abc/map.geojson`)).toMatchObject({ status: 400, answer: { error_code: 'invalid_arguments' } });
  });

  it('shows the history to the owner and editors only, and restores only from the map page', async () => {
    const owner = await account();
    const viewer = await account();
    const editor = await account();
    const stranger = await account();
    const mapId = await upload(owner.key, [point(1, 1, { title: 'One' })]);
    await service.db('map_members').insert([
      { map_id: mapId, user_id: editor.userId, role: 'editor' },
      { map_id: mapId, user_id: viewer.userId, role: 'viewer' },
    ]);
    await service.db('maps').where({ id: mapId }).update({ visibility: 'select', collaborate: true });
    const [version] = await versionsOf(owner.browser, mapId);
    expect((await json(editor.browser, `/maps/${mapId}/versions`)).status).toBe(200);
    expect(await json(viewer.browser, `/maps/${mapId}/versions`)).toMatchObject({ status: 403, answer: { error_code: 'permission_denied' } });
    expect(await json(stranger.browser, `/maps/${mapId}/versions/${version!.id}/map.geojson`)).toMatchObject({ status: 404, answer: { error_code: 'map_not_found' } });
    // Another site's page (no form token) may not restore, even with the cookie.
    const crossSite = await json(owner.browser, `/maps/${mapId}/versions/${version!.id}/restore`, { method: 'POST', headers: { 'x-csrf-token': 'forged', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite).toMatchObject({ status: 403, answer: { error_code: 'permission_denied' } });
    const anonymous = new Browser(service.url);
    expect((await anonymous.request(`/maps/${mapId}/versions`)).status).toBe(403);
  });

  /**
   * The media cleanup as it would run for this image alone: its upload and release are moved 10
   * days back and the grace is 9 days, so media of other test files (aged a day at most, in the
   * shared database) is never taken by it — a grace of 0 once took media-cleanup.test.ts's.
   */
  const cleanUpMediaOf = async (image: string) => {
    await service.db('images').where({ id: image }).update({ created_at: service.db.raw("now() - interval '10 days'"), released_at: service.db.raw("now() - interval '10 days'") });
    return deleteUnusedMedia(service.db, 'image', 9 * 24 * 3_600_000, 1000);
  };

  it('keeps the newest versions and the young ones; the cleanup prunes the rest, and media a kept version shows stays', async () => {
    const me = await account();
    const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3060a0' } }).jpeg().toBuffer();
    const image = (await service.send('image/upload', me.key, { file_type: 'jpg' }, photo)).image_id as string;
    const mapId = await upload(me.key, [{ ...point(1, 1, { title: 'Photo', image: { id: image } }), id: 1 }]);
    // The item with the photo is deleted: only the versions before it show the photo now.
    await save(me.browser, mapId, { features: { added: [], changed: [], deleted: [1] } });
    for (const title of ['a', 'b', 'c']) await save(me.browser, mapId, { features: { added: [{ key: title, feature: point(2, 2, { title }) }], changed: [], deleted: [] } });
    const versions = await versionsOf(me.browser, mapId);
    expect(versions).toHaveLength(5);
    // Young versions are all kept, whatever the count.
    await pruneVersions(service.db, 2, 30);
    expect(await versionsOf(me.browser, mapId)).toHaveLength(5);
    expect((await cleanUpMediaOf(image)).map((m) => m.id)).not.toContain(image);
    // Old ones past the newest 2 go; the oldest kept still puts together exactly.
    const expected = await versionDoc(me.browser, mapId, versions[1]!.id);
    await service.db('map_versions').where({ map_id: mapId }).update({ created_at: service.db.raw("now() - interval '40 days'") });
    expect(await pruneVersions(service.db, 2, 30)).toBeGreaterThanOrEqual(3);
    const kept = await versionsOf(me.browser, mapId);
    expect(kept.map((v) => v.id)).toEqual(versions.slice(0, 2).map((v) => v.id));
    expect(await versionDoc(me.browser, mapId, versions[1]!.id)).toEqual(expected);
    expect(await json(me.browser, `/maps/${mapId}/versions/${versions[4]!.id}/map.geojson`)).toMatchObject({ status: 400, answer: { error: expect.stringContaining('older than the versions kept') } });
    // No version shows the photo any more: the media cleanup may take it.
    expect((await cleanUpMediaOf(image)).map((m) => m.id)).toContain(image);
  });
});
