// Scale-out check (README "Tests"; issue 14): two API processes and two worker processes — the
// scaled-out entry points, `api/main.ts` and `workers/main.ts` — on a PostgreSQL cluster and a
// Temporal server of the test's own. 20 clients append 50 files each to one map, through either
// API, some giving up early and retrying through the other with the same Idempotency-Key, some
// sending a request again after its answer; map uploads, image uploads and image refreshes run
// beside them. Afterwards every count is exact: each append's feature once, each upload's map
// once, each image once, one workflow per request in Temporal, no request file left behind.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { pointsFile, sendFile, callApi, type Answer } from '../support/apiRequests.js';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { postgresBinDir } from '../support/privatePostgres.js';
import { seededRandom, sendWithRetries } from '../support/retryingClient.js';
import { duplicated, mapCounts, requestFiles, titleCounts, workflowsByType } from '../support/serviceState.js';

const CLIENTS = 20;
const APPENDS_PER_CLIENT = 50;
const UPLOADS = 8;
const POINTS_PER_UPLOAD = 20;
const IMAGES = 6;
/** Share of requests whose first try the client gives up after a moment, then sends again through the other API. */
const GIVE_UP_SHARE = 0.15;
/** Share of answered requests that the client sends again anyway (through the other API). */
const REPEAT_SHARE = 0.1;

describe.skipIf(!postgresBinDir())('two API and two worker processes', () => {
  let deployment: Deployment;
  let urls: string[];

  beforeAll(async () => {
    deployment = await startDeployment();
    const apis = await Promise.all([deployment.startApi('api-1'), deployment.startApi('api-2')]);
    urls = apis.map((api) => api.url);
    await Promise.all([deployment.startWorker('worker-1'), deployment.startWorker('worker-2')]);
  });
  afterAll(async () => {
    await deployment?.stop();
  });

  it('keeps exact counts under 20 clients × 50 appends with retries through the other API, beside uploads, images and refreshes', async () => {
    onTestFailed(() => console.error(deployment.output()));
    const { key, userId } = await deployment.newUser();
    const base = await sendFile(urls[0]!, 'map/upload', key, { file_type: 'empty', visibility: 'private', title: 'Appended to' });
    expect(base.error).toBeUndefined();

    /** One request as a client sends it: maybe given up once, maybe repeated after its answer (by a choice seeded by its name). */
    const request = async (name: string, first: number, send: (url: string, signal: AbortSignal) => Promise<Answer>) => {
      const random = seededRandom([...name].reduce((hash, c) => Math.imul(hash, 31) + c.charCodeAt(0), 14));
      const giveUp = random() < GIVE_UP_SHARE ? Math.floor(random() * 300) : undefined;
      const repeat = random() < REPEAT_SHARE;
      const { answer, sent } = await sendWithRetries({ urls, first, giveUpFirstAfterMs: giveUp, pauseMs: 200 }, send);
      const again = repeat ? (await sendWithRetries({ urls, first: first + sent, pauseMs: 200 }, send)).answer : undefined;
      return { answer, again };
    };

    const appends = Array.from({ length: CLIENTS }, async (_, client) => {
      const answers: { key: string; answer: Answer; again?: Answer }[] = [];
      for (let i = 0; i < APPENDS_PER_CLIENT; i++) {
        const tag = `c${client}-a${i}`;
        const args = { map_id: base.id, file_type: 'geojson' };
        const file = pointsFile(tag, 1);
        const result = await request(tag, client, (url, signal) => sendFile(url, 'map/append', key, args, file, { idempotencyKey: tag, signal }));
        answers.push({ key: tag, ...result });
      }
      return answers;
    });
    const uploads = Array.from({ length: UPLOADS }, (_, n) => {
      const args = { file_type: 'geojson', visibility: 'private', title: `Upload ${n}` };
      const file = pointsFile(`upload-${n}`, POINTS_PER_UPLOAD);
      return request(`upload-${n}`, n, (url, signal) => sendFile(url, 'map/upload', key, args, file, { idempotencyKey: `upload-${n}`, signal }));
    });
    const images = Array.from({ length: IMAGES }, async (_, n) => {
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40 * n, g: 100, b: 200 - 20 * n } } }).png().toBuffer();
      return request(`image-${n}`, n, (url, signal) => sendFile(url, 'image/upload', key, { file_type: 'png' }, png, { idempotencyKey: `image-${n}`, signal }));
    });
    const refreshes = Array.from({ length: 4 }, async (_, n) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000 * n));
      return sendWithRetries({ urls, first: n, pauseMs: 200 }, (url, signal) => callApi(url, 'map/refresh_image', key, { map_id: base.id }, { signal }));
    });

    const started = Date.now();
    const [appended, uploaded, stored, refreshed] = await Promise.all([Promise.all(appends), Promise.all(uploads), Promise.all(images), Promise.all(refreshes)]);
    console.log(`scale-out: ${CLIENTS * APPENDS_PER_CLIENT} appends, ${UPLOADS} uploads, ${IMAGES} images in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Every request was answered, and a repeated request got the same answer as its first.
    const allAppends = appended.flat();
    for (const { key: tag, answer, again } of allAppends) {
      expect(answer, tag).toMatchObject({ id: base.id, import: { features: 1 } });
      if (again) expect(again, `${tag} sent again`).toMatchObject({ id: base.id, import: { features: 1 } });
    }
    for (const [n, { answer, again }] of uploaded.entries()) {
      expect(answer, `upload ${n}`).toMatchObject({ title: `Upload ${n}`, import: { features: POINTS_PER_UPLOAD } });
      if (again) expect(again.id, `upload ${n} sent again`).toBe(answer.id);
    }
    for (const [n, { answer, again }] of stored.entries()) {
      expect(answer.error, `image ${n}`).toBeUndefined();
      if (again) expect(again.image_id, `image ${n} sent again`).toBe(answer.image_id);
    }
    for (const { answer } of refreshed) expect(answer).toMatchObject({ id: base.id, message: expect.any(String) });

    // The appended map holds each append's feature exactly once, and its counters agree.
    const titles = await titleCounts(deployment.db, base.id);
    expect(duplicated(titles)).toEqual([]);
    expect([...titles.keys()].sort()).toEqual(allAppends.map(({ key: tag }) => `${tag} #0`).sort());
    expect(await mapCounts(deployment.db, base.id)).toEqual({ featureCount: CLIENTS * APPENDS_PER_CLIENT, rows: CLIENTS * APPENDS_PER_CLIENT });
    // One map per upload, each with its own features once; one image per image upload.
    const mapIds = uploaded.map(({ answer }) => answer.id as number);
    expect(new Set(mapIds).size).toBe(UPLOADS);
    const maps = await deployment.db('maps').select('id').where({ owner_id: userId });
    expect(maps.map((m) => Number(m.id)).sort((a, b) => a - b)).toEqual([base.id, ...mapIds].sort((a, b) => a - b));
    for (const [n, id] of mapIds.entries()) {
      const counts = await titleCounts(deployment.db, id);
      expect(duplicated(counts), `upload ${n}`).toEqual([]);
      expect(counts.size, `upload ${n}`).toBe(POINTS_PER_UPLOAD);
    }
    const imageRows = await deployment.db('images').select('id').where({ owner_id: userId });
    expect(imageRows.map((row) => row.id).sort()).toEqual(stored.map(({ answer }) => answer.image_id).sort());
    // Every request removed its files. A request its client gave up is answered by no one: the
    // API it went to may still be on its way to noticing (a loaded machine's CI run saw the file
    // of a given-up request that the other API had already answered), so this waits a moment.
    await expect.poll(() => requestFiles(deployment.blobDir), { timeout: 15_000, interval: 250 }).toEqual([]);

    // Temporal ran one job per request (a retry joined the job of its key), and every job is listed.
    const appendIds = allAppends.map(({ key: tag }) => `append:${userId}:${tag}`).sort();
    await expect
      .poll(async () => {
        const types = await workflowsByType(deployment.client);
        const count = (type: string) => ({ ids: types.get(type)?.ids.size ?? 0, executions: types.get(type)?.executions ?? 0, notCompleted: types.get(type)?.notCompleted ?? [] });
        return {
          appendMap: count('appendMap'),
          appendIds: [...(types.get('appendMap')?.ids ?? [])].sort().join() === appendIds.join(),
          uploadMap: count('uploadMap'),
          uploadMedia: count('uploadMedia'),
          mapImageIds: [...(types.get('mapImage')?.ids ?? [])].sort(),
        };
      }, { timeout: 30_000, interval: 1_000 })
      .toEqual({
        appendMap: { ids: CLIENTS * APPENDS_PER_CLIENT, executions: CLIENTS * APPENDS_PER_CLIENT, notCompleted: [] },
        appendIds: true,
        uploadMap: { ids: UPLOADS + 1, executions: UPLOADS + 1, notCompleted: [] },
        uploadMedia: { ids: IMAGES, executions: IMAGES, notCompleted: [] },
        mapImageIds: [base.id, ...mapIds].map((id) => `map-image:${id}`).sort(),
      });
  });
});
