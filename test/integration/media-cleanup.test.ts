// The cleanup of unused images and markers: the media-cleanup workflow against the real
// Temporal server (as the hourly Schedule and `npm run admin -- media-gc` run it), the grace
// period, and the race with a write that references media the cleanup is about to delete; and the
// hourly `cleanup`'s sweep of stored files no row names.
// Other test files share the database: every run here uses a grace of an hour or more and ages
// only its own media, so it never deletes theirs.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { claimMedia } from '../../db/mapMedia.js';
import { pruneVersions } from '../../db/mapVersions.js';
import { deleteUnusedMedia } from '../../db/unusedMedia.js';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';
import { waitFor } from '../../lib/waitFor.js';
import { ensureSchedules, MEDIA_CLEANUP_SCHEDULE_ID, runMediaCleanupNow } from '../../workers/schedules.js';
import { startTestService, type TestService } from './harness.js';

const HOUR = 3_600_000;
let service: TestService;
let owner: { key: string; userId: number };
let connection: Connection;
let client: Client;
beforeAll(async () => {
  service = await startTestService();
  owner = await service.newUser();
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: service.config.temporalNamespace });
});
afterAll(async () => {
  await service.stop();
  await connection?.close();
});

const png = (width = 40) => sharp({ create: { width, height: 40, channels: 3, background: '#aa3311' } }).png().toBuffer();
const uploadImage = async () => (await service.send('image/upload', owner.key, { file_type: 'png' }, await png())).image_id as string;
const uploadMarker = async () => (await service.send('marker/upload', owner.key, { file_type: 'png' }, await png())).marker_id as string;
/** Moves the media's upload (or its release by a map) `hours` into the past. */
const age = (table: 'images' | 'markers', id: string, hours: number, column: 'created_at' | 'released_at' = 'created_at') =>
  service.db(table).where({ id }).update({ [column]: service.db.raw(`now() - make_interval(hours => ?)`, [hours]) });
const exists = async (table: 'images' | 'markers', id: string) => (await service.db(table).where({ id }).first()) !== undefined;
const gc = (graceMs = 24 * HOUR) => runMediaCleanupNow(client, service.config, graceMs);
const filesOf = async (table: 'images' | 'markers', id: string) =>
  ((await service.db(table).where({ id }).first())?.derivatives ?? []).map((d: { key: string }) => path.join(service.blobDir, d.key));
const newMap = async () => (await service.send('map/upload', owner.key, { file_type: 'empty', visibility: 'private' })).id as number;
const useIn = (mapId: number, properties: Record<string, unknown>) =>
  service.call('map/update', owner.key, {
    map_id: mapId,
    geojson: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties }] },
  });

describe('media cleanup', () => {
  it('deletes unused media older than the grace period with its files, and keeps younger media', async () => {
    const young = await uploadImage();
    const old = await uploadImage();
    const oldMarker = await uploadMarker();
    await age('images', old, 25);
    await age('markers', oldMarker, 25);
    const files = [...(await filesOf('images', old)), ...(await filesOf('markers', oldMarker))];
    expect(files.every((file) => fs.existsSync(file))).toBe(true);
    const result = await gc();
    expect(result.images).toContain(old);
    expect(result.markers).toContain(oldMarker);
    expect(result.images).not.toContain(young);
    expect([await exists('images', old), await exists('markers', oldMarker), await exists('images', young)]).toEqual([false, false, true]);
    expect(files.filter((file) => fs.existsSync(file))).toEqual([]);
    const served = await fetch(`${service.url}/images/${old}/s256.jpg`, { headers: { authorization: `Token ${owner.key}` } });
    expect(served.status).toBe(404);
  });

  it('never deletes media a map or its kept versions use; once a map lets it go, the grace period counts from then', async () => {
    const image = await uploadImage();
    const marker = await uploadMarker();
    await age('images', image, 48);
    await age('markers', marker, 48);
    const mapId = await newMap();
    expect((await useIn(mapId, { image: { id: image }, marker_id: marker })).error).toBeUndefined();
    await gc(HOUR);
    expect([await exists('images', image), await exists('markers', marker)]).toEqual([true, true]);
    await useIn(mapId, {}); // the map lets both go
    let result = await gc();
    expect(result.images).not.toContain(image);
    expect([await exists('images', image), await exists('markers', marker)]).toEqual([true, true]);
    await age('images', image, 25, 'released_at');
    // The map's earlier versions still show them: kept while those versions are.
    expect((await gc()).images).not.toContain(image);
    await service.db('map_versions').where({ map_id: mapId }).update({ created_at: service.db.raw("now() - interval '40 days'") });
    await pruneVersions(service.db, 1, 30);
    result = await gc();
    expect(result.images).toContain(image);
    expect(await exists('markers', marker)).toBe(true);
    // A deleted map lets go of its media too.
    const other = await newMap();
    const kept = await uploadMarker();
    await useIn(other, { marker_id: kept });
    await service.db('maps').where({ id: other }).delete();
    expect((await service.db('markers').where({ id: kept }).first()).released_at).not.toBeNull();
  });

  it('refuses a write whose media the cleanup deleted while the write waited (the write comes second)', async () => {
    const image = await uploadImage();
    const mapId = await newMap();
    // The cleanup has locked the row it is about to delete (as its first statement does) …
    const trx = await service.db.transaction();
    await trx('images').where({ id: image }).forUpdate().first();
    const write = useIn(mapId, { image: { id: image, w: 40, h: 40, tip_color: '#aa3311', avg_color: '#aa3311' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // … and deletes it, finding no map that uses it.
    await trx('images').where({ id: image }).delete();
    await trx.commit();
    const answer = await write;
    expect(answer.error_code).toBe('invalid_geojson');
    expect(answer.error).toContain(image);
    expect((await service.call('map/get', owner.key, { map_id: mapId })).images).toEqual([]);
  });

  it.skipIf(inject('databaseUrl') === null)('skips media a write has claimed and not committed yet (the cleanup comes second)', async () => {
    const image = await uploadImage();
    await age('images', image, 48);
    const mapId = await newMap();
    const trx = await service.db.transaction();
    await claimMedia(trx, mapId, { images: [image], markers: [] });
    expect((await deleteUnusedMedia(service.db, 'image', HOUR, 1000)).map((m) => m.id)).not.toContain(image);
    await trx('map_media').insert({ map_id: mapId, kind: 'image', media_id: image });
    await trx.commit();
    expect((await deleteUnusedMedia(service.db, 'image', HOUR, 1000)).map((m) => m.id)).not.toContain(image);
    expect(await exists('images', image)).toBe(true);
  });

  it('never loses media a racing write references: either the write wins and the media stays, or it is refused', async () => {
    const outcomes = { kept: 0, refused: 0 };
    for (let round = 0; round < 8; round++) {
      const image = await uploadImage();
      await age('images', image, 48);
      const mapId = await newMap();
      // The cleanup starts first; the write follows 0–140 ms later, so both orders happen.
      const cleanup = gc();
      await new Promise((resolve) => setTimeout(resolve, round * 20));
      const [answer] = await Promise.all([useIn(mapId, { image: { id: image } }), cleanup]);
      const map = await service.call('map/get', owner.key, { map_id: mapId });
      if (answer.error === undefined) {
        outcomes.kept += 1;
        expect(await exists('images', image)).toBe(true);
        expect(map.images).toEqual([image]);
        const served = await fetch(`${service.url}/images/${image}/s256.jpg`, { headers: { authorization: `Token ${owner.key}` } });
        expect(served.status).toBe(200);
      } else {
        outcomes.refused += 1;
        expect(answer.error_code).toBe('invalid_geojson');
        expect(await exists('images', image)).toBe(false);
        expect(map.images).toEqual([]);
      }
    }
    expect(outcomes.kept + outcomes.refused).toBe(8);
  });

  it('the hourly cleanup removes stored files no row names a day on, and keeps every file a row names and every younger one', async () => {
    const store = new LocalBlobStore(service.blobDir);
    const image = await uploadImage();
    const marker = await uploadMarker();
    const mapId = await newMap();
    // The map's static image and thumbnail, once the renderer has recorded them.
    let mapImages: string[] = [];
    await waitFor('the map’s first static image', async () => {
      const files = (await service.db('maps').where({ id: mapId }).first('image_files'))?.image_files as { static: { key: string }; thumbnail: { key: string } } | null;
      mapImages = files ? [files.static.key, files.thumbnail.key] : [];
      return files !== null;
    }, 60_000);
    // What a worker stopped between storing files and writing their row leaves: files no row names.
    const orphans = await Promise.all(['images', 'markers', 'map-images'].map(async (prefix) => store.putBuffer(prefix, Buffer.from(`left by a killed worker under ${prefix}`))));
    const [imageFiles, markerFiles] = [await filesOf('images', image), await filesOf('markers', marker)];
    expect([imageFiles.length > 0, markerFiles.length > 0]).toEqual([true, true]);
    const kept = [...imageFiles, ...markerFiles, ...mapImages.map((key) => path.join(service.blobDir, key))];
    // A day and an hour on (every stored file's date moved back), but for one orphan written just now.
    const dayAndAnHourAgo = new Date(Date.now() - 25 * HOUR);
    for (const prefix of ['images', 'markers', 'map-images']) {
      for (const name of fs.readdirSync(path.join(service.blobDir, prefix))) fs.utimesSync(path.join(service.blobDir, prefix, name), dayAndAnHourAgo, dayAndAnHourAgo);
    }
    const young = await store.putBuffer('images', Buffer.from('stored a moment ago, its row not written yet'));

    const result = await client.workflow.execute('cleanup', { taskQueue: service.config.taskQueue, workflowId: `cleanup-${Date.now()}`, args: [], workflowExecutionTimeout: '2 minutes' });
    expect((result as { blobsRemoved: number }).blobsRemoved).toBeGreaterThanOrEqual(orphans.length);
    expect(await Promise.all(orphans.map((orphan) => store.exists(orphan.key)))).toEqual([false, false, false]);
    expect(kept.filter((path) => !fs.existsSync(path))).toEqual([]);
    expect(await store.exists(young.key)).toBe(true);
  });

  it('is an hourly Temporal Schedule, made idempotently', async () => {
    const settings = { ...service.config, mediaGraceMs: 2 * HOUR };
    try {
      await ensureSchedules(client, settings);
      await ensureSchedules(client, settings); // a second worker starting
      const description = await client.schedule.getHandle(MEDIA_CLEANUP_SCHEDULE_ID).describe();
      expect(description.spec.intervals?.[0]?.every).toBe(HOUR);
      expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'mediaCleanup', taskQueue: service.config.taskQueue });
      expect(description.action.type === 'startWorkflow' && description.action.args).toEqual([{ graceMs: 2 * HOUR, mediaTaskQueue: service.config.mediaTaskQueue, versions: { keep: service.config.versionsKept, keepDays: service.config.versionsKeptDays } }]);
    } finally {
      for (const id of [MEDIA_CLEANUP_SCHEDULE_ID, 'cleanup']) {
        await client.schedule.getHandle(id).delete().catch((error) => {
          if (!(error instanceof ScheduleNotFoundError)) throw error;
        });
      }
    }
  });

  it.skipIf(inject('databaseUrl') === null)('runs from the operator CLI, printing each deleted id on its own line', async () => {
    const image = await uploadImage();
    await age('images', image, 3);
    const { stdout } = await promisify(execFile)(path.resolve('node_modules/.bin/tsx'), ['scripts/admin.ts', 'media-gc', '--grace', '2h'], {
      env: {
        ...process.env,
        DATABASE_URL: inject('databaseUrl')!,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TEMPORAL_TASK_QUEUE: service.config.taskQueue,
        TEMPORAL_MEDIA_TASK_QUEUE: service.config.mediaTaskQueue,
      },
    });
    expect(stdout.trim().split('\n')).toContain(image);
    expect(await exists('images', image)).toBe(false);
  });
});
