// A map's features as rows (db/migrations/014–017): the move of existing documents, and the
// repository writes and reads the web editor will use. Runs against PostgreSQL (a database of
// its own, created before the move) and against PGlite.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Db } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { openMapDocument } from '../../db/mapDocument.js';
import { featureById, featuresInBox, saveFeatures } from '../../db/mapFeatures.js';
import { insertMap, insertStreamedMap, readMapDetail } from '../../db/maps.js';
import { completedContent, contentOfDocument } from '../../lib/formats/documentContent.js';
import { rowOf } from '../../lib/formats/featureRows.js';
import { parseMapDocument, type MapFeature } from '../../lib/geojson/model.js';
import { databaseUpTo, type Database } from '../support/databases.js';

const LAST_BEFORE_ROWS = '013_map_content_bytes';

const kinds: ('pg' | 'pglite')[] = inject('databaseUrl') === null ? ['pglite'] : ['pg', 'pglite'];

async function newUser(db: Db): Promise<number> {
  const name = `u${randomBytes(4).toString('hex')}`;
  const [row] = await db('users').insert({ username: name, email: `${name}@example.com`, password_hash: 'x', email_verified: true }).returning('id');
  return Number(row.id);
}

/** An image or marker row of `ownerId` (no files: these tests look at the links only). */
async function newMedia(db: Db, ownerId: number, kind: 'image' | 'marker', id: string): Promise<void> {
  const common = { id, owner_id: ownerId, width: 10, height: 10, blob_prefix: kind === 'image' ? 'images' : 'markers' };
  if (kind === 'image') await db('images').insert({ ...common, tip_color: '#000000', avg_color: '#000000' });
  else await db('markers').insert(common);
}

/** The document map/get answers, read as one text and parsed. */
async function documentOf(db: Db, mapId: number): Promise<{ text: string; document: Record<string, unknown> }> {
  const read = await openMapDocument(db, mapId);
  if (!read) throw new Error(`no map ${mapId}`);
  let text = '';
  for await (const piece of read.text) text += piece.toString();
  return { text, document: JSON.parse(text) };
}

const point = (id: number, lon: number, lat: number, properties: Record<string, unknown> = {}): MapFeature => ({
  type: 'Feature',
  id,
  geometry: { type: 'Point', coordinates: [lon, lat] },
  properties,
});

describe.each(kinds)('maps made before features became rows (%s)', (kind) => {
  let database: Database;
  afterAll(() => database?.drop());

  // Documents as the service stored them before: jsonb, keys in jsonb's order, ids in any order.
  const documents = {
    grouped: {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Museums' }, { id: 'p', title: 'Parks', parent: 1 }],
      settings: { zoom: 3 },
      features: [
        { type: 'Feature', id: 7, geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Louvre\twith a tab', group: 1, image: { id: 'IMAGE00000000001', width: 10 } } },
        { type: 'Feature', id: 2, geometry: { type: 'LineString', coordinates: [[1, 2], [-3, 4.5]] }, properties: { group: 'p', marker_id: 'MARKER0000000001', note: 'back\\slash "quoted" 😀' } },
        { type: 'Feature', id: 30, geometry: { type: 'Polygon', coordinates: [[[0, 0], [5, 0], [5, 5], [0, 0]]] }, properties: {} },
      ],
    },
    empty: { type: 'FeatureCollection', groups: [], features: [] },
    bare: { features: [{ type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [0, 0] }, properties: {} }] },
  };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    database = await databaseUpTo(kind, LAST_BEFORE_ROWS);
    const owner = await newUser(database.db);
    for (const [name, document] of Object.entries(documents)) {
      const [row] = await database.db('maps')
        .insert({ owner_id: owner, short_name: name, title: name, basemap: 'classic', visibility: 'public', geojson: JSON.stringify(document) })
        .returning('id');
      ids[name] = Number(row.id);
      await database.db('maps').where({ id: ids[name] }).update({ content_bytes: database.db.raw('octet_length(geojson::text)') });
    }
    await database.db('map_media').insert([
      { map_id: ids.grouped, kind: 'image', media_id: 'IMAGE00000000001' },
      { map_id: ids.grouped, kind: 'marker', media_id: 'MARKER0000000001' },
    ]);
    await migrateToLatest(database.db);
  }, 120_000);

  it('answers the same documents, features in their order, with exact sizes and counters', async () => {
    for (const [name, before] of Object.entries(documents)) {
      const { text, document } = await documentOf(database.db, ids[name]!);
      expect(document).toEqual(before);
      const map = await database.db('maps').where({ id: ids[name] }).first();
      expect(Number(map.content_bytes)).toBe(Buffer.byteLength(text));
      expect(Number(map.feature_count)).toBe(before.features.length);
      expect(Number(map.next_feature_id)).toBe(Math.max(0, ...before.features.map((f) => f.id)) + 1);
    }
    expect((await database.db('maps').where({ id: ids.grouped }).first()).next_feature_id).toBe(31);
  });

  it('keeps each feature as the service writes it, with its group, bounding box and media', async () => {
    const rows = await database.db('map_features').where({ map_id: ids.grouped }).orderBy('ordinal');
    expect(rows.map((row) => Number(row.feature_id))).toEqual([7, 2, 30]);
    // Written as the service writes features (type, id, geometry, properties; the order of the
    // properties was jsonb's already), so an append can change an id without parsing.
    expect(JSON.parse(rows[0].feature)).toEqual(documents.grouped.features[0]);
    for (const row of rows) expect(row.feature).toMatch(/^\{"type":"Feature","id":\d+,"geometry":\{.*\},"properties":\{.*\}\}$/);
    expect(rows.map((row) => [row.group_id, row.image_id, row.marker_id])).toEqual([
      ['1', 'IMAGE00000000001', null],
      ['"p"', null, 'MARKER0000000001'],
      [null, null, null],
    ]);
    expect(rows.map((row) => [row.min_lon, row.min_lat, row.max_lon, row.max_lat])).toEqual([
      [2.3376, 48.8606, 2.3376, 48.8606],
      [-3, 2, 1, 4.5],
      [0, 0, 5, 5],
    ]);
    const detail = await readMapDetail(database.db, ids.grouped!);
    expect([detail?.images, detail?.markers]).toEqual([['IMAGE00000000001'], ['MARKER0000000001']]);
  });

  it('leaves no document column behind, and deletes a map\'s rows with the map', async () => {
    const columns = await database.db('maps').columnInfo();
    expect(Object.keys(columns)).not.toContain('geojson');
    await database.db('maps').where({ id: ids.bare }).delete();
    expect(await database.db('map_features').where({ map_id: ids.bare })).toEqual([]);
  });
});

describe.each(kinds)('feature rows (%s)', (kind) => {
  let database: Database;
  let db: Db;
  let owner: number;
  beforeAll(async () => {
    database = await databaseUpTo(kind);
    db = database.db;
    owner = await newUser(db);
  }, 120_000);
  afterAll(() => database?.drop());

  async function newMap(features: MapFeature[], extra: Record<string, unknown> = {}): Promise<number> {
    const content = completedContent(contentOfDocument(parseMapDocument({ type: 'FeatureCollection', features, ...extra })), new Map());
    const record = await insertMap(db, { ownerId: owner, shortNameBase: 'm', title: 'm', description: '', basemap: 'classic', visibility: 'public', content });
    return record.id;
  }

  const revisionOf = async (mapId: number) => Number((await db('maps').where({ id: mapId }).first('revision')).revision);

  it('writes a map of more rows than one COPY takes on PGlite (4 MB) whole and in order', async () => {
    // Texts with tabs, line breaks and backslashes: they must survive the COPY text format.
    const features = Array.from({ length: 24_000 }, (_, i) =>
      point(24_000 - i, (i % 360) - 180, (i % 180) - 90, { title: `item ${i}\t"tab"\nline \\ ${'x'.repeat(150)}` }),
    );
    const mapId = await newMap(features);
    const { document } = await documentOf(db, mapId);
    expect(document.features).toEqual(features);
  }, 60_000);

  it('writes a map whose rows stream in as parsed: on PGlite from the document file once the streamed lines have ended (insertStreamedMap)', async () => {
    const features = Array.from({ length: 6_000 }, (_, i) => point(i + 1, (i % 360) - 180, (i % 180) - 90, { title: `row ${i} ${'y'.repeat(200)}` }));
    const content = completedContent(contentOfDocument(parseMapDocument({ type: 'FeatureCollection', features })), new Map());
    const parts: Buffer[] = [];
    for await (const line of content.lines()) parts.push(Buffer.from(line));
    const all = Buffer.concat(parts);
    // The streamed lines, in 64 kB pieces (cut anywhere, as the parser thread sends them).
    let streamedRead = 0;
    const streamed = (async function* () {
      for (let at = 0; at < all.length; at += 64 * 1024) {
        const piece = all.subarray(at, at + 64 * 1024);
        streamedRead += piece.length;
        yield piece;
      }
    })();
    let readAgain = 0;
    const { lines: _lines, ...rest } = content;
    const record = await insertStreamedMap(db, {
      ownerId: owner,
      description: '',
      basemap: 'classic',
      visibility: 'public',
      lines: streamed,
      linesAgain: async () => {
        readAgain++;
        return [all.subarray(0, 1000), all.subarray(1000)];
      },
      settle: async () => ({ title: 'streamed', shortNameBase: 'streamed', content: rest }),
    });
    if (record === 'fallBack') throw new Error('fell back');
    expect(streamedRead).toBe(all.length); // read to their end either way (a failed parse fails there)
    expect(readAgain).toBe(kind === 'pglite' ? 1 : 0);
    expect((await documentOf(db, record.id)).document.features).toEqual(features);
  }, 60_000);

  it('reads one feature by id and the features inside a box, in the map\'s order', async () => {
    const mapId = await newMap([point(5, 10, 10), point(3, 170, -20), point(9, -175, 40), point(1, 12, 11)]);
    expect(JSON.parse((await featureById(db, mapId, 3))!)).toEqual(point(3, 170, -20));
    expect(await featureById(db, mapId, 4)).toBeUndefined();
    const ids = async (box: [number, number, number, number]) => (await featuresInBox(db, mapId, box)).map((f) => f.id);
    expect(await ids([0, 0, 20, 20])).toEqual([5, 1]);
    expect(await ids([10, 10, 10, 10])).toEqual([5]); // touching counts
    expect(await ids([160, -90, -170, 90])).toEqual([3, 9]); // across the antimeridian
    expect(await ids([-180, -90, 180, 90])).toEqual([5, 3, 9, 1]);
    const line = await newMap([{ type: 'Feature', id: 1, geometry: { type: 'LineString', coordinates: [[0, 0], [10, 10]] }, properties: {} }]);
    expect((await featuresInBox(db, line, [4, 4, 6, 6])).map((f) => f.id)).toEqual([1]); // its box meets the area
  });

  it('saves changed, new and deleted features at a revision and refuses a save made on an older one', async () => {
    const mapId = await newMap([point(1, 0, 0), point(2, 1, 1), point(3, 2, 2)]);
    const revision = await revisionOf(mapId);
    const changed = point(2, 5, 5, { title: 'moved' });
    const added = point(10, 6, 6);
    const outcome = await saveFeatures(db, {
      userId: null,
      mapId,
      revision,
      upsert: [rowOf(changed, JSON.stringify(changed)), rowOf(added, JSON.stringify(added))],
      delete: [1],
    });
    expect(outcome).toEqual({ saved: true, revision: revision + 1 });
    const { text, document } = await documentOf(db, mapId);
    // A changed feature keeps its place; a new one goes last.
    expect(document.features).toEqual([changed, point(3, 2, 2), added]);
    const map = await db('maps').where({ id: mapId }).first();
    expect(Number(map.content_bytes)).toBe(Buffer.byteLength(text));
    expect([Number(map.feature_count), Number(map.next_feature_id)]).toEqual([3, 11]);
    // Someone saving on the revision they read before this save is refused, and nothing changes.
    const stale = point(3, 9, 9);
    expect(await saveFeatures(db, { userId: null, mapId, revision, upsert: [rowOf(stale, JSON.stringify(stale))], delete: [] })).toEqual({
      saved: false,
      revision: revision + 1,
    });
    expect((await documentOf(db, mapId)).text).toBe(text);
    expect(await saveFeatures(db, { userId: null, mapId: mapId + 1_000_000, revision, upsert: [], delete: [] })).toBeUndefined();
  });

  it('keeps map_media exact when single features change', async () => {
    const withImage = (id: number, image: string) => point(id, 0, 0, { image: { id: image, w: 10, h: 10, tip_color: '#000000', avg_color: '#000000' } });
    for (const id of ['IMAGE_A', 'IMAGE_B']) await newMedia(db, owner, 'image', id);
    for (const id of ['MARKER_A', 'MARKER_B']) await newMedia(db, owner, 'marker', id);
    const mapId = await newMap([withImage(1, 'IMAGE_A'), withImage(2, 'IMAGE_A'), point(3, 0, 0, { marker_id: 'MARKER_A' })]);
    const media = async () => {
      const detail = await readMapDetail(db, mapId);
      return [detail?.images, detail?.markers];
    };
    expect(await media()).toEqual([['IMAGE_A'], ['MARKER_A']]);
    const save = async (upsert: MapFeature[], remove: number[] = []) =>
      saveFeatures(db, { userId: null, mapId, revision: await revisionOf(mapId), upsert: upsert.map((f) => rowOf(f, JSON.stringify(f))), delete: remove });
    await save([point(1, 0, 0)]); // one of two users of IMAGE_A lets it go
    expect(await media()).toEqual([['IMAGE_A'], ['MARKER_A']]);
    await save([withImage(2, 'IMAGE_B')]); // the last one moves to another image
    expect(await media()).toEqual([['IMAGE_B'], ['MARKER_A']]);
    await save([], [3]); // the marker's only feature goes
    expect(await media()).toEqual([['IMAGE_B'], []]);
    await save([point(4, 0, 0, { marker_id: 'MARKER_B', image: { id: 'IMAGE_B', w: 10, h: 10, tip_color: '#000000', avg_color: '#000000' } })]);
    expect(await media()).toEqual([['IMAGE_B'], ['MARKER_B']]);
  });

  it('lets a map use only media of its owner and editors, and notes when a map lets media go', async () => {
    const other = await newUser(db);
    const editor = await newUser(db);
    await newMedia(db, other, 'image', 'FOREIGN_IMAGE');
    await newMedia(db, other, 'marker', 'FOREIGN_MARKER');
    await newMedia(db, editor, 'image', 'EDITOR_IMAGE');
    await newMedia(db, owner, 'marker', 'OWN_MARKER');
    const image = (id: string) => ({ id, w: 10, h: 10, tip_color: '#000000', avg_color: '#000000' });
    await expect(newMap([point(1, 0, 0, { image: image('FOREIGN_IMAGE') })])).rejects.toMatchObject({ name: 'MediaNotLinkable', kind: 'image', mediaId: 'FOREIGN_IMAGE' });
    await expect(newMap([point(1, 0, 0, { marker_id: 'NO_SUCH_MARKER' })])).rejects.toMatchObject({ kind: 'marker', mediaId: 'NO_SUCH_MARKER' });
    const mapId = await newMap([point(1, 0, 0, { marker_id: 'OWN_MARKER' })]);
    const save = async (feature: MapFeature) =>
      saveFeatures(db, { userId: null, mapId, revision: await revisionOf(mapId), upsert: [rowOf(feature, JSON.stringify(feature))], delete: [] });
    await expect(save(point(2, 0, 0, { marker_id: 'FOREIGN_MARKER' }))).rejects.toMatchObject({ mediaId: 'FOREIGN_MARKER' });
    await expect(save(point(2, 0, 0, { image: image('EDITOR_IMAGE') }))).rejects.toMatchObject({ mediaId: 'EDITOR_IMAGE' });
    await db('map_members').insert({ map_id: mapId, user_id: editor, role: 'editor' });
    expect(await save(point(2, 0, 0, { image: image('EDITOR_IMAGE') }))).toMatchObject({ saved: true });
    expect((await readMapDetail(db, mapId))?.images).toEqual(['EDITOR_IMAGE']);
    // Letting go of media stamps it (the cleanup's grace period counts from then).
    expect((await db('markers').where({ id: 'OWN_MARKER' }).first('released_at')).released_at).toBeNull();
    await save(point(1, 0, 0));
    expect((await db('markers').where({ id: 'OWN_MARKER' }).first('released_at')).released_at).not.toBeNull();
    expect((await db('images').where({ id: 'FOREIGN_IMAGE' }).first('released_at')).released_at).toBeNull();
  });

  it('refuses a save the caller\'s check refuses, and changes nothing', async () => {
    const mapId = await newMap([point(1, 0, 0)]);
    const before = await documentOf(db, mapId);
    const revision = await revisionOf(mapId);
    const big = point(2, 0, 0, { text: 'x'.repeat(1000) });
    await expect(
      saveFeatures(db, {
        userId: null,
        mapId,
        revision,
        upsert: [rowOf(big, JSON.stringify(big))],
        delete: [],
        check: ({ contentBytes }) => {
          if (contentBytes > 500) throw new Error('too large');
        },
      }),
    ).rejects.toThrow('too large');
    expect((await documentOf(db, mapId)).text).toBe(before.text);
    expect(await revisionOf(mapId)).toBe(revision);
  });
});
