// New maps' ids (issue 24): random whole numbers below 2^53, never a count, drawn again when taken;
// lists that were in id order are in creation order. Migrations 027–028 on a database of earlier
// maps: every map keeps its id, an unlisted one gets its link key (its earlier addresses no longer
// open it to others), and nothing numbers maps any more.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lookUpMapAddress } from '../../api/mapAddress.js';
import type { Db } from '../../db/connection.js';
import { chooseMapId, insertMap } from '../../db/maps.js';
import { emptyMapContent } from '../../lib/formats/documentContent.js';
import { newMapId } from '../../lib/mapIds.js';
import { migrateToLatest } from '../../db/migrate.js';
import { databaseUpTo } from '../support/databases.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

const onPostgres = inject('databaseUrl') !== null;

/** A function that answers these ids, one a call. */
const drawing = (ids: number[]) => () => ids.shift()!;

async function newUser(db: Db): Promise<{ id: number; username: string }> {
  const username = `u${randomBytes(5).toString('hex')}`;
  const [row] = await db('users').insert({ username, email: `${username}@example.com`, password_hash: 'x', email_verified: true }).returning('id');
  return { id: Number(row.id), username };
}

describe('new map ids', () => {
  it('are random whole numbers below 2^53, never in sequence, and every client can send them back', async () => {
    const { key } = await service.newUser();
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await service.send('map/upload', key, { file_type: 'empty', visibility: 'private', title: `Map ${i}` })).id);
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 2 ** 30, String(id)).toBe(true);
    const gaps = ids.slice(1).map((id, i) => Math.abs(id - ids[i]!));
    expect(Math.min(...gaps)).toBeGreaterThan(1_000_000);
    // As a number and as a string of its digits (up to 16 of them).
    for (const id of ids) {
      expect((await service.call('map/get', key, { map_id: id })).id).toBe(id);
      expect((await service.call('map/get', key, { map_id: String(id) })).id).toBe(id);
    }
    expect((await service.call('map/get', key, { map_id: '9007199254740992' })).error_code).toBe('invalid_arguments');
    // map/list in the order they were made, as it was when ids counted up.
    expect((await service.call('map/list', key)).owner.map((map: { id: number }) => map.id)).toEqual(ids);
  });

  it('draws again when the id is taken', async () => {
    const { key } = await service.newUser();
    const taken = (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private' })).id as number;
    const fresh = newMapId();
    expect(await service.db.transaction((trx) => chooseMapId(trx, drawing([taken, fresh])))).toBe(fresh);
  });

  it.runIf(onPostgres)('draws again when a writer that has not committed yet holds the id', async () => {
    const owner = await newUser(service.db);
    const [held, other] = [newMapId(), newMapId()];
    const first = await service.db.transaction();
    try {
      expect(await chooseMapId(first, () => held)).toBe(held);
      await first('maps').insert({ id: held, owner_id: owner.id, short_name: 'held', title: 'Held', description: '', basemap: 'classic', visibility: 'private', head: '{}' });
      let settled = false;
      const second = service.db.transaction((trx) => chooseMapId(trx, drawing([held, other]))).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false); // waiting for the first writer
      await first.commit();
      expect(await second).toBe(other);
    } finally {
      if (!first.isCompleted()) await first.rollback();
    }
  });
});

const kinds: ('pg' | 'pglite')[] = onPostgres ? ['pg', 'pglite'] : ['pglite'];

describe.each(kinds)('migrations 027–028 on %s', (kind) => {
  it('keep every map and its id, give unlisted maps a link key, and number no map after them', async () => {
    const database = await databaseUpTo(kind, '026_stored_file_keys');
    try {
      const { db } = database;
      const owner = await newUser(db);
      const ids: Record<string, number> = {};
      for (const visibility of ['public', 'unlisted', 'private', 'select']) {
        const [row] = await db('maps').insert({ owner_id: owner.id, short_name: visibility, title: visibility, description: '', basemap: 'classic', visibility, head: '{}' }).returning('id');
        ids[visibility] = Number(row.id);
      }
      expect(ids.select).toBe(ids.public! + 3); // counted, as before

      await migrateToLatest(db);
      const rows = await db('maps').where({ owner_id: owner.id }).orderBy('id').select('id', 'visibility', 'link_key');
      expect(rows.map((row) => [Number(row.id), row.visibility])).toEqual(Object.entries(ids).map(([visibility, id]) => [id, visibility]));
      const keys = Object.fromEntries(rows.map((row) => [row.visibility, row.link_key]));
      expect(keys).toMatchObject({ public: null, private: null, select: null });
      expect(keys.unlisted).toMatch(/^[A-HJ-NP-Z]{22}$/);

      // The unlisted map's earlier address opens it to nobody but its owner; its link does.
      expect((await lookUpMapAddress(db, owner.username, 'unlisted', null)).kind).toBe('none');
      expect(await lookUpMapAddress(db, owner.username, 'unlisted', owner.id)).toMatchObject({ kind: 'moved', path: `/${owner.username}/unlisted~${keys.unlisted}` });
      expect((await lookUpMapAddress(db, owner.username, `unlisted~${keys.unlisted}`, null)).kind).toBe('map');
      expect((await lookUpMapAddress(db, owner.username, 'public', null)).kind).toBe('map');

      // The database holds to it: a key exactly while unlisted; no id without the writer choosing it.
      await expect(db('maps').where({ id: ids.public }).update({ visibility: 'unlisted' })).rejects.toThrow(/maps_link_key_check/);
      await expect(db('maps').where({ id: ids.unlisted }).update({ visibility: 'private' })).rejects.toThrow(/maps_link_key_check/);
      await expect(db('maps').insert({ owner_id: owner.id, short_name: 'counted', title: 'x', description: '', basemap: 'classic', visibility: 'public', head: '{}' })).rejects.toThrow(/null value in column "id"/);
      const made = await insertMap(db, { ownerId: owner.id, shortNameBase: 'new', title: 'New', description: '', basemap: 'classic', visibility: 'unlisted', content: emptyMapContent() });
      expect(made.id).toBeGreaterThan(2 ** 30);
      expect(made.linkKey).toMatch(/^[A-HJ-NP-Z]{22}$/);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
