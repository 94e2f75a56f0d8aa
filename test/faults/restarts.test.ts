// Parts of the service restarted or killed under load (README "Tests"; issue 14): PostgreSQL
// restarted (an immediate shutdown: a crash) during a burst of appends, then the Temporal server
// killed and started again on its SQLite file during another; clients send each failed append
// again with its Idempotency-Key. Every append answered is in the map exactly once, every append is
// answered in the end, and the API answers again within seconds. Then API processes killed right
// after they answered: what they acknowledged is in the database (the answer comes after the commit).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { callApi, pointsFile, sendFile, type Answer } from '../support/apiRequests.js';
import { appendBurst, until, type BurstAppend } from '../support/appendBurst.js';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { sendWithRetries } from '../support/retryingClient.js';
import { postgresBinDir } from '../support/privatePostgres.js';
import type { ApiProcess, WorkerProcess } from '../support/serviceProcesses.js';
import { duplicated, mapCounts, titleCounts } from '../support/serviceState.js';

const FEATURES_PER_APPEND = 3;

/** The kinds of failed attempts, for the log. */
const kindsOf = (failures: (Answer | Error)[]): string =>
  [...new Set(failures.map((failure) => (failure instanceof Error ? failure.message : failure.error_code)))].join(', ') || 'none';

describe.skipIf(!postgresBinDir())('parts of the service restarted under load', () => {
  let deployment: Deployment;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    deployment = await startDeployment();
    [api, worker] = await Promise.all([deployment.startApi('api'), deployment.startWorker('worker')]);
  });
  afterAll(async () => {
    await deployment?.stop();
  });

  /** A new user's new empty map. */
  const emptyMap = async (key: string): Promise<number> => {
    const map = await sendFile(api.url, 'map/upload', key, { file_type: 'empty', visibility: 'private' });
    expect(map.error).toBeUndefined();
    return map.id as number;
  };

  /** Every append answered with its features, and each feature in the map exactly once. */
  const expectEachAppendOnce = async (mapId: number, appends: BurstAppend[]) => {
    for (const { key, answer } of appends) expect(answer, key).toMatchObject({ id: mapId, import: { features: FEATURES_PER_APPEND } });
    const titles = await titleCounts(deployment.db, mapId);
    expect(duplicated(titles)).toEqual([]);
    const expected = appends.flatMap(({ key }) => Array.from({ length: FEATURES_PER_APPEND }, (_, i) => `${key} #${i}`));
    expect([...titles.keys()].sort()).toEqual(expected.sort());
    expect(await mapCounts(deployment.db, mapId)).toEqual({ featureCount: expected.length, rows: expected.length });
  };

  it('PostgreSQL restarted during a burst of appends: each append once, the API answers again within seconds', async () => {
    onTestFailed(() => console.error(deployment.output()));
    const { key } = await deployment.newUser();
    const mapId = await emptyMap(key);
    let answered = 0;
    const burst = appendBurst({ urls: [api.url], key, mapId, prefix: 'pg', clients: 10, appendsPerClient: 15, featuresPerAppend: FEATURES_PER_APPEND, onAnswered: (n) => (answered = n) });
    await until(() => answered >= 20);
    const stoppedAt = Date.now();
    await deployment.postgres.stop('immediate');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await deployment.postgres.start();
    const upAt = Date.now();
    // The API answers again (its pool drops the connections the restart ended).
    let back: Answer | undefined;
    while (!back && Date.now() - upAt < 30_000) {
      const answer = await callApi(api.url, 'map/list', key, {}).catch((error: Error) => ({ error: error.message }));
      if (answer.error === undefined) back = answer;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const recoveredMs = Date.now() - upAt;
    const appends = await burst;
    const failures = appends.flatMap((append) => append.failures);
    const across = appends.filter((append) => append.sentAt < stoppedAt && append.answeredAt > upAt);
    console.log(`PostgreSQL restart: the API answered again ${recoveredMs} ms after the server was up; ${across.length} appends were in flight across it; ${failures.length} attempts failed (${kindsOf(failures)})`);

    expect(back, 'map/list after the restart').toBeDefined();
    expect(recoveredMs).toBeLessThan(10_000);
    expect(across.length, 'appends in flight across the restart').toBeGreaterThan(0);
    // Failed attempts were the API's JSON answer "try again" (no lost connection, no 500, no internal error).
    expect(failures.filter((failure) => failure instanceof Error || failure.error_code !== 'service_unavailable')).toEqual([]);
    expect(api.child.exitStatus()).toBeNull();
    expect(worker.child.exitStatus()).toBeNull();
    await expectEachAppendOnce(mapId, appends);
  });

  it('the Temporal server restarted on its SQLite file during a burst: each append, upload and image once, all answered', async () => {
    onTestFailed(() => console.error(deployment.output()));
    const { key, userId } = await deployment.newUser();
    const mapId = await emptyMap(key);
    let answered = 0;
    const burst = appendBurst({ urls: [api.url], key, mapId, prefix: 'tp', clients: 10, appendsPerClient: 15, featuresPerAppend: FEATURES_PER_APPEND, onAnswered: (n) => (answered = n) });
    await until(() => answered >= 20);
    // Uploads and image uploads too, sent as the server goes down.
    const untilAnswered = (send: (url: string, signal: AbortSignal) => Promise<Answer>) =>
      sendWithRetries({ urls: [api.url], first: 0, maxAttempts: 120, pauseMs: 500, tryAgain: (a) => a.error !== undefined }, send).then((r) => r.answer);
    const uploads = Promise.all(
      Array.from({ length: 4 }, (_, n) =>
        untilAnswered((url, signal) => sendFile(url, 'map/upload', key, { file_type: 'geojson', visibility: 'private' }, pointsFile(`tp-upload-${n}`, 20), { idempotencyKey: `tp-upload-${n}`, signal })),
      ),
    );
    const images = Promise.all(
      Array.from({ length: 2 }, async (_, n) => {
        const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 50 * n, b: 10 } } }).png().toBuffer();
        return untilAnswered((url, signal) => sendFile(url, 'image/upload', key, { file_type: 'png' }, png, { idempotencyKey: `tp-image-${n}`, signal }));
      }),
    );
    const stoppedAt = Date.now();
    await deployment.temporal.stop('kill');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await deployment.temporal.start();
    const startedAt = Date.now();
    const [appends, uploaded, stored] = await Promise.all([burst, uploads, images]);
    const failures = appends.flatMap((append) => append.failures);
    const across = appends.filter((append) => append.sentAt < stoppedAt && append.answeredAt > startedAt);
    console.log(`Temporal restart: ${across.length} appends were in flight across it; ${failures.length} attempts failed (${kindsOf(failures)})`);

    expect(across.length, 'appends in flight across the restart').toBeGreaterThan(0);
    // The API waited for the server (the client retries) or said to try again; it stayed up.
    expect(failures.filter((failure) => failure instanceof Error || failure.error_code !== 'service_unavailable')).toEqual([]);
    expect(api.child.exitStatus()).toBeNull();
    expect(worker.child.exitStatus()).toBeNull();
    await expectEachAppendOnce(mapId, appends);
    // Each upload made one map with its points once; each image upload one image.
    for (const [n, answer] of uploaded.entries()) expect(answer, `upload ${n}`).toMatchObject({ import: { features: 20 } });
    const maps = await deployment.db('maps').select('id').where({ owner_id: userId });
    expect(maps.map((m) => Number(m.id)).sort((a, b) => a - b)).toEqual([mapId, ...uploaded.map((answer) => answer.id as number)].sort((a, b) => a - b));
    for (const answer of uploaded) expect(duplicated(await titleCounts(deployment.db, answer.id))).toEqual([]);
    const imageRows = await deployment.db('images').select('id').where({ owner_id: userId });
    expect(imageRows.map((row) => row.id).sort()).toEqual(stored.map((answer) => answer.image_id).sort());
    // Temporal has each append's job, completed once (a job ended unstarted may have run again
    // under its key); its list catches up with the last ones within moments.
    const expected = appends.map(({ key: appendKey }) => `append:${userId}:${appendKey}`).sort();
    const completedOnce = async () => {
      const completed = new Map<string, number>();
      for await (const execution of deployment.client.workflow.list({ query: "WorkflowType = 'appendMap'" })) {
        if (execution.status.name === 'COMPLETED' && execution.workflowId.startsWith(`append:${userId}:`)) completed.set(execution.workflowId, (completed.get(execution.workflowId) ?? 0) + 1);
      }
      return { ids: [...completed.keys()].sort(), moreThanOnce: [...completed].filter(([, n]) => n > 1) };
    };
    await expect.poll(completedOnce, { timeout: 30_000, interval: 1_000 }).toEqual({ ids: expected, moreThanOnce: [] });
  });

  it('an API process killed right after it answered: what it acknowledged is stored', async () => {
    onTestFailed(() => console.error(deployment.output()));
    const { key, userId } = await deployment.newUser();
    const mapId = await emptyMap(key);
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } }).png().toBuffer();
    const requests: { op: string; args: object; body: string | Uint8Array; check: (answer: Answer) => Promise<void> }[] = [
      {
        op: 'map/upload',
        args: { file_type: 'geojson', visibility: 'private', title: 'Uploaded' },
        body: pointsFile('uploaded', 500),
        check: async (answer) => expect(await mapCounts(deployment.db, answer.id)).toEqual({ featureCount: 500, rows: 500 }),
      },
      {
        op: 'map/append',
        args: { map_id: mapId, file_type: 'geojson' },
        body: pointsFile('appended', 500),
        check: async () => expect((await titleCounts(deployment.db, mapId)).size).toBe(500),
      },
      {
        op: 'map/update',
        args: { map_id: mapId, title: 'Renamed' },
        body: JSON.stringify({ map_id: mapId, title: 'Renamed' }),
        check: async () => expect(await deployment.db('maps').where({ id: mapId }).first('title')).toEqual({ title: 'Renamed' }),
      },
      {
        op: 'image/upload',
        args: { file_type: 'png' },
        body: png,
        check: async (answer) => expect(await deployment.db('images').where({ id: answer.image_id, owner_id: userId }).first('id')).toEqual({ id: answer.image_id }),
      },
    ];
    for (const { op, args, body, check } of requests) {
      const doomed = await deployment.startApi(`api (killed after answering ${op})`);
      const json = op === 'map/update';
      const response = await fetch(`${doomed.url}/api/1/${op}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, ...(json ? { 'content-type': 'application/json' } : { 'service-api-arg': JSON.stringify(args) }) },
        body: body as string | Uint8Array<ArrayBuffer>,
      });
      // kill -9 the moment the answer's head arrives, before its body is even read.
      process.kill(doomed.child.pid, 'SIGKILL');
      const answer = JSON.parse(await response.text()) as Answer;
      expect(answer.error, op).toBeUndefined();
      expect(await doomed.child.exited).toEqual({ code: null, signal: 'SIGKILL' });
      await check(answer);
    }
    // And the other API process serves it all.
    const map = await callApi(api.url, 'map/get', key, { map_id: mapId });
    expect(map).toMatchObject({ title: 'Renamed' });
    expect(map.geojson.features).toHaveLength(500);
  });
});
