import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCollaborate, setMembership, setVisibility } from '../../db/maps.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
type Account = Awaited<ReturnType<TestService['newUser']>>;
let owner: Account, editor: Account, viewer: Account, stranger: Account;
const maps: Record<string, number> = {};

beforeAll(async () => {
  service = await startTestService();
  owner = await service.newUser();
  editor = await service.newUser();
  viewer = await service.newUser();
  stranger = await service.newUser();
  for (const visibility of ['public', 'unlisted', 'private'] as const) {
    const body = await service.send('map/upload', owner.key, { file_type: 'empty', visibility, title: visibility });
    maps[visibility] = body.id;
  }
  const selected = await service.send('map/upload', owner.key, { file_type: 'empty', visibility: 'private', title: 'select' });
  maps.select = selected.id;
  await setVisibility(service.db, maps.select!, 'select');
  await setMembership(service.db, maps.select!, viewer.userId, 'viewer');
  // An editor on a private map with collaboration on, and one where it is off.
  await setCollaborate(service.db, maps.private!, true);
  await setMembership(service.db, maps.private!, editor.userId, 'editor');
  const closed = await service.send('map/upload', owner.key, { file_type: 'empty', visibility: 'private', title: 'closed' });
  maps.closed = closed.id;
  await setMembership(service.db, maps.closed!, editor.userId, 'editor');
});
afterAll(() => service.stop());

const get = (account: Account, mapId: number | string | undefined) =>
  service.call('map/get', account.key, mapId === undefined ? {} : { map_id: mapId });

describe('map/get', () => {
  it('returns every field of the Map table to the owner, with ISO UTC dates', async () => {
    const map = await get(owner, maps.select);
    expect(Object.keys(map).sort()).toEqual(
      [
        'basemap', 'collaborate', 'created_date', 'description', 'editor_users', 'geojson', 'id', 'images',
        'markers', 'modified_date', 'owner', 'short_name', 'title', 'url', 'viewer_users', 'visibility',
      ].sort(),
    );
    expect(map).toMatchObject({
      id: maps.select,
      owner: owner.username,
      visibility: 'select',
      basemap: 'classic',
      collaborate: false,
      viewer_users: [viewer.username],
      editor_users: [],
      images: [],
      markers: [],
    });
    expect(map.created_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(map.modified_date).toMatch(/Z$/);
  });

  it('lets anyone read public maps, and unlisted ones with their link key (unlisted-maps.test.ts)', async () => {
    expect((await get(stranger, maps.public)).title).toBe('public');
    const linkKey = /~([A-Z]+)$/.exec((await get(owner, maps.unlisted)).url)![1];
    expect((await service.call('map/get', stranger.key, { map_id: maps.unlisted, link_key: linkKey })).title).toBe('unlisted');
    expect((await get(stranger, maps.unlisted)).error_code).toBe('map_not_found');
  });

  it('lets the named viewers read a select map and nobody else', async () => {
    expect((await get(viewer, maps.select)).title).toBe('select');
    expect(await get(stranger, maps.select)).toMatchObject({ error_code: 'map_not_found' });
  });

  it('lets editors read a private map only while collaboration is on', async () => {
    expect((await get(editor, maps.private)).editor_users).toEqual([editor.username]);
    expect(await get(editor, maps.closed)).toMatchObject({ error_code: 'map_not_found' });
  });

  it("answers another user's private map exactly like a map that does not exist", async () => {
    const hidden = await get(stranger, maps.private);
    const missing = await get(stranger, 987654321);
    expect(hidden.error_code).toBe('map_not_found');
    expect(hidden).toEqual({ ...missing, error: missing.error.replace('987654321', String(maps.private)) });
  });

  it('requires map_id and refuses ids that are not ids', async () => {
    const missing = await get(owner, undefined);
    expect(missing.error_code).toBe('invalid_arguments');
    expect(missing.error).toContain('"map_id" is required');
    for (const bad of ['abc', -1, 1.5, '']) expect((await get(owner, bad as number)).error_code).toBe('invalid_arguments');
    expect((await get(owner, String(maps.public))).id).toBe(maps.public);
  });
});

describe('map/list', () => {
  it('lists owned, edited and viewable maps in their own lists', async () => {
    const mine = await service.call('map/list', owner.key);
    expect(mine.owner.map((m: { id: number }) => m.id).sort()).toEqual(Object.values(maps).sort());
    expect(mine.editor).toEqual([]);
    expect(mine.viewer).toEqual([]);
    expect(Object.keys(mine.owner[0]).sort()).toEqual(['id', 'owner', 'short_name', 'title', 'url', 'visibility']);

    const edits = await service.call('map/list', editor.key);
    expect(edits.editor.map((m: { id: number }) => m.id)).toEqual([maps.private]);
    const views = await service.call('map/list', viewer.key);
    expect(views.viewer.map((m: { id: number; visibility: string }) => [m.id, m.visibility])).toEqual([[maps.select, 'select']]);
    expect(await service.call('map/list', stranger.key)).toEqual({ owner: [], editor: [], viewer: [] });
  });
});

describe('map/update access', () => {
  it("refuses a viewer's update of a public map and leaves it unchanged", async () => {
    const body = await service.call('map/update', stranger.key, { map_id: maps.public, title: 'hijacked' });
    expect(body.error_code).toBe('permission_denied');
    expect((await get(owner, maps.public)).title).toBe('public');
  });

  it("answers an update of another user's private map as not found", async () => {
    expect(await service.call('map/update', stranger.key, { map_id: maps.private, title: 'x' })).toMatchObject({
      error_code: 'map_not_found',
    });
  });

  it('lets an editor update while collaboration is on', async () => {
    const body = await service.call('map/update', editor.key, { map_id: maps.private, description: 'edited by editor' });
    expect(body.error).toBeUndefined();
    expect((await get(owner, maps.private)).description).toBe('edited by editor');
  });

  it('leaves visibility and the short name (the URL) to the owner: an editor changes content, title, description and basemap', async () => {
    const before = await get(owner, maps.private);
    for (const args of [{ visibility: 'public' }, { short_name: 'moved' }, { title: 'ok', visibility: 'unlisted' }]) {
      const body = await service.call('map/update', editor.key, { map_id: maps.private, ...args });
      expect(body.error_code).toBe('permission_denied');
      expect(body.error).toMatch(/Only the owner may change the visibility or the short name/);
    }
    expect(await get(owner, maps.private)).toEqual(before);
    const body = await service.call('map/update', editor.key, {
      map_id: maps.private,
      title: 'private',
      basemap: 'light',
      geojson: { type: 'FeatureCollection', features: [] },
    });
    expect(body.error).toBeUndefined();
    expect((await get(owner, maps.private)).basemap).toBe('light');
    // The owner may.
    expect((await service.call('map/update', owner.key, { map_id: maps.private, visibility: 'private', short_name: 'private' })).error).toBeUndefined();
  });

  it('refuses append by a non-editor before reading the body', async () => {
    const body = await service.send('map/append', stranger.key, { map_id: maps.public, file_type: 'geojson' }, '{}');
    expect(body.error_code).toBe('permission_denied');
  });
});
