// Stored files interrupted in the worker process (README "Tests"; issue 14): the worker storing an
// uploaded image's resized files, or a map's new static image, is killed (kill -9, by the fault
// points of activities/faultPoints.ts) after the files are in the blob store and before a row
// names them; a new worker takes over. The image upload then answers once, with one image; the
// map gets its static image; and the files the killed attempt left — which no row names — are
// gone after the orphan sweep, while every file a row names stays.
import sharp from 'sharp';
import { describe, expect, it, onTestFailed } from 'vitest';
import { waitFor } from '../../lib/waitFor.js';
import { sendFile } from '../support/apiRequests.js';
import { postgresBinDir } from '../support/privatePostgres.js';
import { storedFiles, sweepOrphansADayLater } from '../support/serviceState.js';
import { workersPerTest } from '../support/workersPerTest.js';

interface StoredFile {
  key: string;
}

describe.skipIf(!postgresBinDir())('stored files interrupted in the worker process', () => {
  const run = workersPerTest();

  /** Every file a row names: images' and markers' derivatives, maps' static images and thumbnails. */
  const namedFiles = async (): Promise<string[]> => {
    const derivatives = async (table: 'images' | 'markers') =>
      (await run.deployment.db(table).select('derivatives')).flatMap((row: { derivatives: StoredFile[] }) => row.derivatives.map((d) => d.key));
    const maps = (await run.deployment.db('maps').whereNotNull('image_files').select('image_files')) as { image_files: { static: StoredFile; thumbnail: StoredFile } }[];
    return [...(await derivatives('images')), ...(await derivatives('markers')), ...maps.flatMap((row) => [row.image_files.static.key, row.image_files.thumbnail.key])].sort();
  };

  /** After the sweep, the stored files are exactly those rows name. */
  const expectOnlyNamedFilesAfterSweep = async () => {
    const named = await namedFiles();
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((key) => !storedFiles(run.deployment.blobDir).includes(key))).toEqual([]); // none lost
    await sweepOrphansADayLater(run.deployment.client, run.deployment.blobDir);
    expect(storedFiles(run.deployment.blobDir).sort()).toEqual(await namedFiles());
  };

  it('image/upload with its worker killed between storing the resized files and writing the row: one image, and the sweep removes the first files', async () => {
    onTestFailed(() => console.error(run.deployment.output()));
    const { key, userId } = await run.deployment.newUser();
    const doomed = await run.startWorker('worker (dies after storing media files)', { FAULT_POINT: 'media-files-stored', FAULT_ACTION: 'exit' });
    const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa' } }).png().toBuffer();
    const answer = sendFile(run.api.url, 'image/upload', key, { file_type: 'png' }, png, { idempotencyKey: 'image-killed' });
    await doomed.child.waitForOutput(/fault point "media-files-stored" reached/, 120_000);
    expect(await doomed.child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const before = storedFiles(run.deployment.blobDir).length;
    expect(before).toBeGreaterThan(0); // the killed attempt's files, which no row names
    await run.startWorker('worker (takes over)');

    const result = await answer;
    expect(result.error).toBeUndefined();
    expect(result.image_id).toEqual(expect.any(String));
    const images = await run.deployment.db('images').where({ owner_id: userId }).select('id');
    expect(images.map((row: { id: string }) => row.id)).toEqual([result.image_id]);
    // The retry stored its own files: the first attempt's are still there until the sweep.
    expect(storedFiles(run.deployment.blobDir).length).toBeGreaterThan((await namedFiles()).length);
    await expectOnlyNamedFilesAfterSweep();
  });

  it("a map's static image with its worker killed between storing the files and recording them: the map gets its image, and the sweep removes the first files", async () => {
    onTestFailed(() => console.error(run.deployment.output()));
    const { key } = await run.deployment.newUser();
    const doomed = await run.startWorker('worker (dies after storing a map image)', { FAULT_POINT: 'map-image-stored', FAULT_ACTION: 'exit' });
    const created = await sendFile(run.api.url, 'map/upload', key, { file_type: 'empty', visibility: 'public', title: 'Drawn after a kill' });
    expect(created.error).toBeUndefined();
    // The map's first static image is drawn after the upload: the worker dies storing it.
    await doomed.child.waitForOutput(/fault point "map-image-stored" reached/, 120_000);
    expect(await doomed.child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await run.startWorker('worker (takes over)');

    await waitFor('the map’s static image, drawn again', async () => (await run.deployment.db('maps').where({ id: created.id }).first('image_files')).image_files !== null, 120_000);
    await expectOnlyNamedFilesAfterSweep();
  });
});
