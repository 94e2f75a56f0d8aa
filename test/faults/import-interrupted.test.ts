// Imports interrupted in the worker process (README "Tests"; issue 14): the worker running a
// map upload is killed (kill -9, by the fault points of activities/faultPoints.ts) at each point
// an import passes — mid-parse, after the parsed file is staged, inside the database transaction,
// after the commit — and a new worker takes over; the upload then completes exactly once (one map,
// each feature once) or fails with a clear error, and after the orphan sweep no request file is
// left. An append is killed at the two write points too (its write is a transaction of its own).
// Then the import's database connection is ended (pg_terminate_backend) in the middle of its
// transaction: the write is retried, nothing partial is kept, and the worker stays up.
import { describe, expect, it, onTestFailed } from 'vitest';
import { IMPORT_FAULT_POINTS, type ImportFaultPointName } from '../../activities/faultPoints.js';
import { insertMap } from '../../db/maps.js';
import { emptyMapContent } from '../../lib/formats/documentContent.js';
import { pointsFile, sendFile } from '../support/apiRequests.js';
import { postgresBinDir } from '../support/privatePostgres.js';
import { workersPerTest } from '../support/workersPerTest.js';
import { duplicated, mapCounts, requestFiles, sweepOrphansADayLater, titleCounts } from '../support/serviceState.js';

/** Features per upload: enough that the parse and the COPY take a moment. */
const POINTS = 5_000;
/**
 * Where a killed worker leaves a file: the parse's scratch output. Uploads and appends write their
 * rows while they parse (uploadDuringParse, appendDuringParse), in the activity that parses: its
 * output is never staged, and stays a scratch file until the activity ends.
 */
const LEAVES_A_FILE: Record<ImportFaultPointName, string | undefined> = {
  'mid-parse': 'scratch/',
  'after-staging': 'scratch/',
  'in-transaction': 'scratch/',
  'after-commit': 'scratch/',
};

describe.skipIf(!postgresBinDir())('imports interrupted in the worker process', () => {
  const run = workersPerTest();

  /** The user's maps, with their features by title. */
  const mapsOf = async (userId: number) => {
    const maps = await run.deployment.db('maps').select('id').where({ owner_id: userId });
    return Promise.all(maps.map(async ({ id }) => ({ id: Number(id), titles: await titleCounts(run.deployment.db, Number(id)) })));
  };

  /** Every point during an upload; the write points during an append too (its write is another transaction). */
  const cases: { point: ImportFaultPointName; op: 'map/upload' | 'map/append' }[] = [
    ...IMPORT_FAULT_POINTS.map((point) => ({ point, op: 'map/upload' as const })),
    { point: 'in-transaction', op: 'map/append' },
    { point: 'after-commit', op: 'map/append' },
  ];

  for (const { point, op } of cases) {
    it(`${op} with its worker killed at ${point}: a new worker completes it once, and the sweep leaves no file`, async () => {
      onTestFailed(() => console.error(run.deployment.output()));
      const { key, userId } = await run.deployment.newUser();
      const target = op === 'map/append' ? await insertMap(run.deployment.db, { ownerId: userId, shortNameBase: 'target', title: 'Target', description: '', basemap: 'classic', visibility: 'private', content: emptyMapContent() }) : undefined;
      const doomed = await run.startWorker(`worker (dies at ${point})`, { FAULT_POINT: point, FAULT_ACTION: 'exit' });
      const args = target ? { map_id: target.id, file_type: 'geojson' } : { file_type: 'geojson', visibility: 'private', title: point };
      const answer = sendFile(run.api.url, op, key, args, pointsFile(point, POINTS), { idempotencyKey: `kill-${point}` });
      await doomed.child.waitForOutput(new RegExp(`fault point "${point}" reached`), 120_000);
      expect(await doomed.child.exited).toEqual({ code: null, signal: 'SIGKILL' });
      await run.startWorker('worker (takes over)');

      const result = await answer;
      const maps = await mapsOf(userId);
      if (result.error) {
        // A failure must say what happened, and leave nothing behind.
        expect(result.error_code).toMatch(/^(processing_timeout|service_unavailable)$/);
        expect(maps.map((map) => map.titles.size)).toEqual(target ? [0] : []);
      } else {
        expect(result).toMatchObject({ import: { features: POINTS } });
        expect(maps.map((map) => map.id)).toEqual([result.id]);
        if (target) expect(result.id).toBe(target.id);
        expect(duplicated(maps[0]!.titles)).toEqual([]);
        expect(maps[0]!.titles.size).toBe(POINTS);
        expect(await mapCounts(run.deployment.db, result.id)).toEqual({ featureCount: POINTS, rows: POINTS });
        expect(await run.deployment.db('import_requests').where({ map_id: result.id }).count('* as n').first()).toEqual({ n: 1 });
      }
      // The killed attempt's own file is the only one left (the job removed the rest), and the sweep removes it.
      const left = requestFiles(run.deployment.blobDir);
      const expected = LEAVES_A_FILE[point];
      expect(left.map((file) => file.slice(0, file.indexOf('/') + 1))).toEqual(expected ? [expected] : []);
      await sweepOrphansADayLater(run.deployment.client, run.deployment.blobDir);
      expect(requestFiles(run.deployment.blobDir)).toEqual([]);
    });
  }

  it('pg_terminate_backend on the import connection mid-transaction: retried, nothing partial, the worker stays up', async () => {
    onTestFailed(() => console.error(run.deployment.output()));
    const { key, userId } = await run.deployment.newUser();
    const worker = await run.startWorker('worker (stalls in the transaction)', { FAULT_POINT: 'in-transaction', FAULT_ACTION: 'hang', FAULT_HANG_SECONDS: '5' });
    const answer = sendFile(run.api.url, 'map/upload', key, { file_type: 'geojson', visibility: 'private', title: 'terminated' }, pointsFile('terminated', POINTS));
    await worker.child.waitForOutput(/fault point "in-transaction" reached/, 120_000);
    // The import's connection is the one copying feature rows in (it waits there for the rest).
    const { rows } = await run.deployment.db.raw(
      "select pid, pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'copy map_features%'",
    );
    expect(rows).toEqual([{ pid: expect.any(Number), ended: true }]);

    const result = await answer;
    expect(result).toMatchObject({ title: 'terminated', import: { features: POINTS } });
    const maps = await mapsOf(userId);
    expect(maps.map((map) => map.id)).toEqual([result.id]);
    expect(duplicated(maps[0]!.titles)).toEqual([]);
    expect(maps[0]!.titles.size).toBe(POINTS);
    expect(await mapCounts(run.deployment.db, result.id)).toEqual({ featureCount: POINTS, rows: POINTS });
    // Nothing of the ended transaction was kept: no feature rows without their map.
    expect(await run.deployment.db('map_features').whereNotIn('map_id', run.deployment.db('maps').select('id')).count('* as n').first()).toEqual({ n: 0 });
    // The worker lived through it and goes on working.
    expect(worker.child.exitStatus()).toBeNull();
    const appended = await sendFile(run.api.url, 'map/append', key, { map_id: result.id, file_type: 'geojson' }, pointsFile('after', 10));
    expect(appended).toMatchObject({ id: result.id, import: { features: 10 } });
    expect(await mapCounts(run.deployment.db, result.id)).toEqual({ featureCount: POINTS + 10, rows: POINTS + 10 });
    expect(requestFiles(run.deployment.blobDir)).toEqual([]);
  });
});
