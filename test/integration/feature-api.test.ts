// The per-feature API through the whole service (issue 28): feature/get, feature/list (pages,
// bbox, group), feature/save (the web editor's write: add, change, delete, conflicts on a stale
// revision, versions kept) and map/changes after a sequence of writes of every kind; who may do
// what (map/get's and map/update's rules); bad input answered with its error code.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVersions, pruneVersions, versionContent } from '../../db/mapVersions.js';
import { setCollaborate, setMembership } from '../../db/maps.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let owner: { key: string; userId: number; username: string };
let stranger: { key: string; userId: number; username: string };

beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
  owner = await service.newUser();
  stranger = await service.newUser();
});
afterAll(() => service?.stop());

type Feature = { type: 'Feature'; id?: number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> };

const point = (lon: number, lat: number, properties: Record<string, unknown> = {}, id?: number): Feature => ({
  type: 'Feature',
  ...(id === undefined ? {} : { id }),
  geometry: { type: 'Point', coordinates: [lon, lat] },
  properties,
});

async function upload(features: Feature[], { groups = [] as unknown[], visibility = 'public' } = {}) {
  const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility, title: 'Features' }, JSON.stringify({ type: 'FeatureCollection', groups, features }));
  expect(answer.error).toBeUndefined();
  return { id: answer.id as number, url: answer.url as string };
}

const call = (op: string, body: unknown, key = owner.key) => service.call(op, key, body);
const ok = async (op: string, body: unknown, key = owner.key) => {
  const answer = await call(op, body, key);
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer;
};
const titles = (features: Feature[]) => features.map((f) => f.properties.title);
const documentOf = async (mapId: number) => (await ok('map/get', { map_id: mapId })).geojson as { features: Feature[] };

/** Every page of feature/list, following next_cursor. */
async function allPages(args: Record<string, unknown>, key = owner.key) {
  const pages: { revision: number; features: Feature[]; next_cursor: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok('feature/list', { ...args, ...(cursor ? { cursor } : {}) }, key);
    pages.push(page as (typeof pages)[number]);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

describe('feature/get', () => {
  it('answers the features asked for in that order as a FeatureCollection, naming the missing ids', async () => {
    const map = await upload([point(1, 1, { title: 'One' }, 1), point(2, 2, { title: 'Two' }, 2), point(3, 3, { title: 'Three' }, 3)]);
    const answer = await ok('feature/get', { map_id: map.id, ids: [3, 99, 1, 3] });
    expect(answer.type).toBe('FeatureCollection');
    expect(answer.features).toEqual([point(3, 3, { title: 'Three' }, 3), point(1, 1, { title: 'One' }, 1)]);
    expect(answer.missing).toEqual([99]);
    expect(answer.revision).toBe(1);
    // The same features map/get answers.
    const doc = await documentOf(map.id);
    expect(answer.features[1]).toEqual(doc.features[0]);
  });
});

describe('feature/list', () => {
  it('pages through a map in its order with next_cursor, every feature once', async () => {
    const map = await upload(Array.from({ length: 25 }, (_, i) => point(i, i / 2, { title: `P${i}` })));
    const pages = await allPages({ map_id: map.id, limit: 10 });
    expect(pages.map((p) => p.features.length)).toEqual([10, 10, 5]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    expect(pages.flatMap((p) => titles(p.features))).toEqual(Array.from({ length: 25 }, (_, i) => `P${i}`));
    expect(pages.flatMap((p) => p.features)).toEqual((await documentOf(map.id)).features);
    // The default page holds them all; an exact last page ends with null.
    expect((await ok('feature/list', { map_id: map.id })).features).toHaveLength(25);
    expect((await allPages({ map_id: map.id, limit: 25 })).map((p) => p.features.length)).toEqual([25]);
  });

  it('keeps the features whose bounding boxes meet bbox, across the antimeridian too', async () => {
    const line = { type: 'Feature', geometry: { type: 'LineString', coordinates: [[10, 10], [20, 20]] }, properties: { title: 'Line' } } as Feature;
    const map = await upload([point(2.35, 48.85, { title: 'Paris' }), point(13.4, 52.5, { title: 'Berlin' }), point(179.5, 0, { title: 'East' }), point(-179.5, 0, { title: 'West' }), line]);
    const titlesIn = async (bbox: number[]) => allPages({ map_id: map.id, bbox, limit: 1 }).then((pages) => pages.flatMap((p) => titles(p.features)));
    expect(await titlesIn([0, 45, 15, 55])).toEqual(['Paris', 'Berlin']);
    expect(await titlesIn([178, -1, -178, 1])).toEqual(['East', 'West']);
    // A box that only meets the line's bounding box.
    expect(await titlesIn([14, 14, 16, 16])).toEqual(['Line']);
    expect(await titlesIn([100, 80, 101, 81])).toEqual([]);
  });

  it('keeps the features of a group and its subgroups', async () => {
    const groups = [{ id: 1, title: 'Sights' }, { id: 'm', title: 'Museums', parent: 1 }, { id: 3, title: 'Food' }];
    const map = await upload([point(1, 1, { title: 'Tower', group: 1 }), point(2, 2, { title: 'Louvre', group: 'm' }), point(3, 3, { title: 'Bistro', group: 3 }), point(4, 4, { title: 'Loose' })], { groups });
    const inGroup = async (group: unknown) => titles((await ok('feature/list', { map_id: map.id, group })).features);
    expect(await inGroup(1)).toEqual(['Tower', 'Louvre']);
    expect(await inGroup('m')).toEqual(['Louvre']);
    expect(await inGroup(3)).toEqual(['Bistro']);
    expect(titles((await ok('feature/list', { map_id: map.id, group: 1, bbox: [1.5, 1.5, 5, 5] })).features)).toEqual(['Louvre']);
    expect(await call('feature/list', { map_id: map.id, group: 'nope' })).toMatchObject({ error_code: 'group_not_found', error: expect.stringContaining('no group "nope"') });
  });

  it('ends a page of large features at 8 MB, at least one feature a page', async () => {
    const text = 'x'.repeat(3 * 1024 * 1024);
    const map = await upload(Array.from({ length: 4 }, (_, i) => point(i, i, { title: `Big ${i}`, description: text })));
    const pages = await allPages({ map_id: map.id, limit: 10 });
    expect(pages.map((p) => titles(p.features))).toEqual([['Big 0', 'Big 1'], ['Big 2', 'Big 3']]);
    const huge = await upload([point(0, 0, { title: 'Huge', description: 'y'.repeat(9 * 1024 * 1024) }), point(1, 1, { title: 'Small' })]);
    expect((await allPages({ map_id: huge.id })).map((p) => titles(p.features))).toEqual([['Huge'], ['Small']]);
  });

  it('refuses a bad cursor, bbox or limit', async () => {
    const map = await upload([point(1, 1)]);
    for (const args of [{ cursor: 'not-a-cursor' }, { cursor: '1234567890123456' }, { cursor: 5 }, { bbox: [0, 0, 1] }, { bbox: [0, 0, 200, 1] }, { limit: 0 }, { limit: 10_001 }, { group: [] }]) {
      expect(await call('feature/list', { map_id: map.id, ...args }), JSON.stringify(args)).toMatchObject({ error_code: 'invalid_arguments' });
    }
    // Rules a list of four numbers may break: latitudes beyond ±90, south above north.
    expect(await call('feature/list', { map_id: map.id, bbox: [0, 10, 1, 5] })).toMatchObject({ error_code: 'invalid_bbox', error: expect.stringContaining('south (10') });
    expect(await call('feature/list', { map_id: map.id, bbox: [0, 0, 1, 95] })).toMatchObject({ error_code: 'invalid_bbox', error: expect.stringContaining('-90…90') });
  });
});

describe('feature/save', () => {
  it('adds, changes and deletes in one save, keeping a version as the web editor does', async () => {
    const map = await upload([point(1, 1, { title: 'One' }, 1), point(2, 2, { title: 'Two' }, 2), point(3, 3, { title: 'Three' }, 3)]);
    const before = await documentOf(map.id);
    const answer = await ok('feature/save', {
      map_id: map.id,
      revision: 1,
      features: [point(4, 4, { title: 'Four' }), point(1, 1.5, { title: 'One moved' }, 1), point(5, 5, { title: 'Five' })],
      delete: [2],
    });
    expect(answer).toEqual({ revision: 2, added_ids: [4, 5], added: 2, changed: 1, deleted: 1 });
    const after = await documentOf(map.id);
    expect(after.features).toEqual([point(1, 1.5, { title: 'One moved' }, 1), point(3, 3, { title: 'Three' }, 3), point(4, 4, { title: 'Four' }, 4), point(5, 5, { title: 'Five' }, 5)]);
    // The version the editor's History shows: kind save, by the caller, with its counts; the one before puts the old map together.
    const versions = await listVersions(service.db, map.id);
    expect(versions[0]).toMatchObject({ revision: 2, kind: 'save', savedBy: owner.username, added: 2, changed: 1, deleted: 1, featureCount: 4 });
    const old = await versionContent(service.db, map.id, versions[1]!.id);
    expect(JSON.parse(`[${old!.features}]`)).toEqual(before.features);
    // Deleting a feature already gone is no error and counts nothing.
    expect(await ok('feature/save', { map_id: map.id, delete: [2] })).toEqual({ revision: 3, added_ids: [], added: 0, changed: 0, deleted: 0 });
    // Changing the deleted feature is refused, naming it, and writes nothing.
    expect(await call('feature/save', { map_id: map.id, features: [point(2, 2, {}, 2)] })).toMatchObject({ error_code: 'feature_not_found', error: expect.stringContaining('no feature 2;') });
    // An empty save writes nothing.
    expect(await ok('feature/save', { map_id: map.id })).toEqual({ revision: 3, added_ids: [], added: 0, changed: 0, deleted: 0 });
    expect(await listVersions(service.db, map.id)).toHaveLength(3);
  });

  it('refuses a save on a stale revision that changes what someone else changed, naming the features, and saves nothing', async () => {
    const map = await upload([point(1, 1, { title: 'One' }, 1), point(2, 2, { title: 'Two' }, 2), point(3, 3, { title: 'Three' }, 3), point(4, 4, { title: 'Four' }, 4)]);
    const read = await ok('feature/list', { map_id: map.id });
    // Someone else changes 1 and 3 and deletes 2.
    await ok('feature/save', { map_id: map.id, revision: read.revision, features: [point(1, 1, { title: 'Theirs' }, 1), point(3, 3, { title: 'Theirs too' }, 3)], delete: [2] });
    const documentBefore = await documentOf(map.id);
    const stale = await call('feature/save', {
      map_id: map.id,
      revision: read.revision,
      features: [point(1, 1, { title: 'Mine' }, 1), point(2, 2, { title: 'Mine' }, 2), point(9, 9, { title: 'New' })],
      delete: [3],
    });
    expect(stale).toMatchObject({ error_code: 'save_conflict', revision: 2, error: expect.stringMatching(/Features 1, 2, 3 were changed or deleted by someone else since revision 1/) });
    expect(stale.conflicts).toEqual([
      { id: 1, mine: 'changed', theirs: point(1, 1, { title: 'Theirs' }, 1) },
      { id: 2, mine: 'changed', theirs: null },
      { id: 3, mine: 'deleted', theirs: point(3, 3, { title: 'Theirs too' }, 3) },
    ]);
    expect(await documentOf(map.id)).toEqual(documentBefore);
    expect((await listVersions(service.db, map.id)).map((v) => v.revision)).toEqual([2, 1]);
    // A save on the same stale revision touching only what nobody else changed merges (the editor's rule).
    expect(await ok('feature/save', { map_id: map.id, revision: read.revision, features: [point(4, 4.5, { title: 'Four' }, 4)] })).toMatchObject({ revision: 3, changed: 1 });
    // Without a revision, the save overwrites.
    expect(await ok('feature/save', { map_id: map.id, features: [point(1, 1, { title: 'Mine' }, 1)] })).toMatchObject({ revision: 4, changed: 1 });
    expect(titles((await ok('feature/get', { map_id: map.id, ids: [1] })).features)).toEqual(['Mine']);
    // A revision the map has not reached is refused.
    expect(await call('feature/save', { map_id: map.id, revision: 99, features: [point(1, 1, {}, 1)] })).toMatchObject({ error_code: 'unknown_revision', error: expect.stringContaining('revision 4') });
  });

  it("conflicts with the web editor's writes too: a whole-content map/update counts as changing every feature", async () => {
    const map = await upload([point(1, 1, { title: 'One' }, 1), point(2, 2, { title: 'Two' }, 2)]);
    await ok('map/update', { map_id: map.id, geojson: { type: 'FeatureCollection', features: [point(1, 1, { title: 'One' }, 1), point(2, 2, { title: 'Two' }, 2)] } });
    const stale = await call('feature/save', { map_id: map.id, revision: 1, features: [point(2, 2, { title: 'Mine' }, 2)] });
    expect(stale).toMatchObject({ error_code: 'save_conflict', conflicts: [{ id: 2, mine: 'changed' }] });
  });

  it("links images and markers as map/update does: an image by its id alone gets its size and colours; another account's is refused", async () => {
    const png = (width: number) => sharp({ create: { width, height: 10, channels: 4, background: '#336699' } }).png().toBuffer();
    const image = (await service.send('image/upload', owner.key, { file_type: 'png' }, await png(12))).image_id as string;
    const marker = (await service.send('marker/upload', owner.key, { file_type: 'png' }, await png(20))).marker_id as string;
    const theirs = (await service.send('image/upload', stranger.key, { file_type: 'png' }, await png(14))).image_id as string;
    const map = await upload([point(1, 1, { title: 'One' }, 1)]);
    const saved = await ok('feature/save', { map_id: map.id, features: [point(2, 2, { title: 'Photo', image: { id: image }, marker_id: marker })] });
    const [feature] = (await ok('feature/get', { map_id: map.id, ids: saved.added_ids })).features;
    expect(feature.properties).toEqual({ title: 'Photo', image: { id: image, w: 12, h: 10, tip_color: '#336699', avg_color: '#336699' }, marker_id: marker });
    expect(await ok('map/get', { map_id: map.id })).toMatchObject({ images: [image], markers: [marker] });
    const refused = await call('feature/save', { map_id: map.id, features: [point(3, 3, { image: { id: theirs } })] });
    expect(refused).toMatchObject({ error_code: 'invalid_geojson', error: expect.stringContaining(theirs) });
  });

  it('refuses unknown features, invalid geometry, unknown groups, duplicates and too many items, saving nothing', async () => {
    const map = await upload([point(1, 1, { title: 'One', group: 1 }, 1)], { groups: [{ id: 1, title: 'G' }] });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ features: [point(1, 1, {}, 7)] }, 'feature_not_found', /feature 7/],
      [{ features: [point(1, 1, {}, 1), point(1, 1, {}, 2)], revision: 1 }, 'feature_not_found', /no feature 2\b/],
      [{ features: [point(0, 0), { type: 'Feature', geometry: { type: 'Point', coordinates: ['a', 1] }, properties: {} }] }, 'invalid_geojson', /feature index 1.*not a number/],
      [{ features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, properties: {} }] }, 'invalid_geojson', /not closed/],
      [{ features: [point(0, 0, { group: 5 })] }, 'invalid_geojson', /group 5/],
      [{ features: ['text'] }, 'invalid_arguments', /features\.0/],
      [{ features: [point(1, 1, {}, 1), point(1, 2, {}, 1)] }, 'invalid_geojson', /given twice/],
      [{ features: [point(1, 1, {}, 1)], delete: [1] }, 'invalid_geojson', /both/],
      [{ features: [{ ...point(1, 1), id: '1' }] }, 'invalid_geojson', /is a string/],
      [{ delete: [-1] }, 'invalid_arguments', /delete/],
      [{ delete: ['1'] }, 'invalid_arguments', /delete/],
      [{ features: Array.from({ length: 10_001 }, () => point(0, 0)) }, 'invalid_arguments', /at most 10,000/],
      [{ features: Array.from({ length: 6_000 }, () => point(0, 0)), delete: Array.from({ length: 5_000 }, (_, i) => i) }, 'too_many_features', /at most 10,000 features and ids to delete in all/],
      [{ revision: 0 }, 'invalid_arguments', /revision/],
    ];
    for (const [args, code, message] of cases) {
      const answer = await call('feature/save', { map_id: map.id, ...args });
      expect([answer.error_code, answer.error], JSON.stringify(args).slice(0, 200)).toEqual([code, expect.stringMatching(message)]);
    }
    expect((await documentOf(map.id)).features).toEqual([point(1, 1, { title: 'One', group: 1 }, 1)]);
    expect(await listVersions(service.db, map.id)).toHaveLength(1);
  });
});

describe('map/changes', () => {
  it('answers the ids added, changed and deleted since a revision, after writes of every kind', async () => {
    const map = await upload([point(1, 1, { title: 'One' }, 1), point(2, 2, { title: 'Two' }, 2), point(3, 3, { title: 'Three' }, 3), point(4, 4, { title: 'Four' }, 4)]);
    expect(await ok('map/changes', { map_id: map.id, since_revision: 1 })).toEqual({ revision: 1, since_revision: 1, added: [], changed: [], deleted: [] });
    // r2: add 5, change 1, delete 2.
    await ok('feature/save', { map_id: map.id, features: [point(5, 5, { title: 'Five' }), point(1, 1.5, { title: 'One' }, 1)], delete: [2] });
    // r3: add 6 and delete it again, change 5 (new since r1: still only added), change 3 and back (r4).
    await ok('feature/save', { map_id: map.id, features: [point(6, 6), point(5, 5, { title: 'Five!' }, 5), point(3, 3, { title: 'Three?' }, 3)] });
    await ok('feature/save', { map_id: map.id, features: [point(3, 3, { title: 'Three' }, 3)], delete: [6] });
    // r5: an append.
    const appended = await service.send('map/append', owner.key, { map_id: map.id, file_type: 'geojson' }, JSON.stringify({ type: 'FeatureCollection', features: [point(7, 7, { title: 'Appended' })] }));
    expect(appended.error).toBeUndefined();
    const fromStart = await ok('map/changes', { map_id: map.id, since_revision: 1 });
    expect(fromStart).toEqual({ revision: 5, since_revision: 1, added: [5, 7], changed: [1], deleted: [2] });
    expect(await ok('map/changes', { map_id: map.id, since_revision: 2 })).toEqual({ revision: 5, since_revision: 2, added: [7], changed: [5], deleted: [] });
    expect(await ok('map/changes', { map_id: map.id, since_revision: 4 })).toEqual({ revision: 5, since_revision: 4, added: [7], changed: [], deleted: [] });
    // r6: a whole-content map/update: only what really differs is reported.
    const doc = await documentOf(map.id);
    const replaced = doc.features.filter((f) => f.id !== 3).map((f) => (f.id === 4 ? point(4, 4, { title: 'Four, replaced' }, 4) : f));
    await ok('map/update', { map_id: map.id, geojson: { type: 'FeatureCollection', features: [...replaced, point(8, 8, { title: 'Eight' }, 100)] } });
    expect(await ok('map/changes', { map_id: map.id, since_revision: 5 })).toEqual({ revision: 6, since_revision: 5, added: [100], changed: [4], deleted: [3] });
    // A copy kept in step with the answers equals the map.
    const copy = new Map<number, Feature>();
    for (const page of await allPages({ map_id: map.id, limit: 2 })) for (const f of page.features) copy.set(f.id!, f);
    expect([...copy.values()]).toEqual((await documentOf(map.id)).features);
  });

  it('follows a copy through saves: what map/changes names, read with feature/get, makes the copy equal to the map', async () => {
    const map = await upload(Array.from({ length: 6 }, (_, i) => point(i, i, { title: `P${i}` })));
    const first = await ok('feature/list', { map_id: map.id, limit: 3 });
    const copy = new Map<number, Feature>(first.features.map((f: Feature) => [f.id!, f]));
    await ok('feature/save', { map_id: map.id, features: [point(9, 9, { title: 'Added while paging' }), point(1, 1, { title: 'Changed while paging' }, 4)], delete: [2] });
    const second = await ok('feature/list', { map_id: map.id, limit: 100, cursor: first.next_cursor });
    for (const f of second.features) copy.set(f.id, f);
    const changes = await ok('map/changes', { map_id: map.id, since_revision: first.revision });
    for (const id of changes.deleted) copy.delete(id);
    const fresh = await ok('feature/get', { map_id: map.id, ids: [...changes.added, ...changes.changed] });
    for (const f of fresh.features) copy.set(f.id, f);
    const current = (await documentOf(map.id)).features;
    expect(new Map(current.map((f) => [f.id, f]))).toEqual(copy);
  });

  it('refuses a revision ahead of the map, and one older than the versions kept, telling the client to read the whole map', async () => {
    const map = await upload([point(1, 1, {}, 1)]);
    for (const title of ['a', 'b', 'c']) await ok('feature/save', { map_id: map.id, features: [point(1, 1, { title }, 1)] });
    expect(await call('map/changes', { map_id: map.id, since_revision: 5 })).toMatchObject({ error_code: 'unknown_revision', error: expect.stringContaining('revision 4') });
    // The cleanup prunes this map's old versions (the others' are young and kept).
    await service.db('map_versions').where({ map_id: map.id }).update({ created_at: service.db.raw("now() - interval '40 days'") });
    await pruneVersions(service.db, 2, 30);
    const gone = await call('map/changes', { map_id: map.id, since_revision: 1 });
    expect(gone).toMatchObject({ error_code: 'revision_not_kept', error: expect.stringMatching(/oldest kept is 3.*feature\/list.*revision 4/) });
    expect(await ok('map/changes', { map_id: map.id, since_revision: 3 })).toMatchObject({ revision: 4, changed: [1] });
  });
});

describe('who may use the per-feature operations', () => {
  it("reads as map/get allows and writes as map/update allows", async () => {
    const pub = await upload([point(1, 1, { title: 'Public' }, 1)]);
    const priv = await upload([point(1, 1, { title: 'Private' }, 1)], { visibility: 'private' });
    const unlisted = await upload([point(1, 1, { title: 'Unlisted' }, 1)], { visibility: 'unlisted' });
    const linkKey = /~([A-Z]{22})$/.exec(unlisted.url)![1]!;
    const reads = (mapId: number, extra: Record<string, unknown> = {}) => [
      ['feature/get', { map_id: mapId, ids: [1], ...extra }],
      ['feature/list', { map_id: mapId, ...extra }],
      ['map/changes', { map_id: mapId, since_revision: 1, ...extra }],
    ] as const;
    const save = (mapId: number) => ({ map_id: mapId, features: [point(2, 2, { title: 'Stranger' })] });
    // A stranger reads a public map but may not change it.
    for (const [op, args] of reads(pub.id)) expect((await call(op, args, stranger.key)).error, op).toBeUndefined();
    expect(await call('feature/save', save(pub.id), stranger.key)).toMatchObject({ error_code: 'permission_denied' });
    // A private map does not exist for them; an unlisted one only with its link key.
    for (const mapId of [priv.id, unlisted.id]) {
      for (const [op, args] of reads(mapId)) expect(await call(op, args, stranger.key), op).toMatchObject({ error_code: 'map_not_found' });
      expect(await call('feature/save', save(mapId), stranger.key)).toMatchObject({ error_code: 'map_not_found' });
    }
    for (const [op, args] of reads(unlisted.id, { link_key: linkKey })) expect((await call(op, args, stranger.key)).error, op).toBeUndefined();
    expect(await call('feature/save', { ...save(unlisted.id), link_key: linkKey }, stranger.key)).toMatchObject({ error_code: 'invalid_arguments' });
    // Named an editor of the private map with collaboration on, they read and save; a version names them.
    await setMembership(service.db, priv.id, stranger.userId, 'editor');
    await setCollaborate(service.db, priv.id, true);
    for (const [op, args] of reads(priv.id)) expect((await call(op, args, stranger.key)).error, op).toBeUndefined();
    expect(await ok('feature/save', save(priv.id), stranger.key)).toMatchObject({ added_ids: [2] });
    expect((await listVersions(service.db, priv.id))[0]).toMatchObject({ kind: 'save', savedBy: stranger.username });
    // A viewer of a select map reads it and may not save.
    await setCollaborate(service.db, priv.id, false);
    await setMembership(service.db, priv.id, stranger.userId, 'viewer');
    await service.db('maps').where({ id: priv.id }).update({ visibility: 'select' });
    expect((await call('feature/list', { map_id: priv.id }, stranger.key)).features).toHaveLength(2);
    expect(await call('feature/save', save(priv.id), stranger.key)).toMatchObject({ error_code: 'permission_denied' });
    // Without a key, nothing.
    expect(await service.call('feature/get', null, { map_id: pub.id, ids: [1] })).toMatchObject({ error_code: 'missing_api_key' });
  });

  it('answers unknown maps and bad ids with their codes', async () => {
    const map = await upload([point(1, 1, {}, 1)]);
    expect(await call('feature/get', { map_id: 1, ids: [1] })).toMatchObject({ error_code: 'map_not_found' });
    expect(await call('feature/list', { map_id: 1 })).toMatchObject({ error_code: 'map_not_found' });
    expect(await call('feature/save', { map_id: 1, delete: [1] })).toMatchObject({ error_code: 'map_not_found' });
    expect(await call('map/changes', { map_id: 1, since_revision: 1 })).toMatchObject({ error_code: 'map_not_found' });
    for (const ids of [[], [-1], ['1'], [1.5], 'all', Array.from({ length: 1_001 }, (_, i) => i)]) {
      expect(await call('feature/get', { map_id: map.id, ids }), JSON.stringify(ids).slice(0, 50)).toMatchObject({ error_code: 'invalid_arguments' });
    }
    for (const since of [0, -1, '1', 1.5]) {
      expect(await call('map/changes', { map_id: map.id, since_revision: since })).toMatchObject({ error_code: 'invalid_arguments' });
    }
    expect(await call('map/changes', { map_id: map.id })).toMatchObject({ error_code: 'invalid_arguments', error: expect.stringContaining('"since_revision" is required') });
    expect(service.internalErrors).toEqual([]);
  });
});
