// What an import may produce and how long it may take, end to end (issue 8): a small file that
// expands past the size of a map, a map pushed over the limit by an append, database refusals
// that must not be retried, a final write that would outlast the processing limit, and the
// files of every request that ended, however it ended, removed.
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WORKFLOW_TYPES, type UploadMapInput } from '../../lib/jobContracts.js';
import { MAX_MAP_BYTES } from '../../lib/geojson/sizeLimits.js';
import { makeOds, makeXlsx, odsCell, odsHeader, sheetXml } from '../support/spreadsheetWriter.js';
import { featureCollection, startTestService, type TestService } from './harness.js';

const LIMIT_MS = 4_000;
let service: TestService;
let key: string;
let userId: number;
let temporal: Client;

beforeAll(async () => {
  service = await startTestService({ config: { processingTimeoutMs: LIMIT_MS } });
  ({ key, userId } = await service.newUser());
  temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
});
afterAll(async () => {
  await temporal.connection.close();
  await service.stop();
});

const onPostgres = inject('databaseUrl') !== null;

/** Files of requests still in the blob store (uploads, parsed documents, scratch files). */
function requestFiles(): string[] {
  return ['uploads', 'parsed', 'scratch'].flatMap((dir) => {
    const full = path.join(service.blobDir, dir);
    return fs.existsSync(full) ? fs.readdirSync(full).map((name) => `${dir}/${name}`) : [];
  });
}

const newMap = async (features = 2) =>
  (await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private' }, JSON.stringify(featureCollection(features)))).id as number;
const getMap = (id: number) => service.call('map/get', key, { map_id: id });

describe('the size of a map', () => {
  it('refuses a 1 kB ODS that expands past 64 MB quickly, with map_too_large, leaving no file behind', async () => {
    const id = await newMap();
    const before = await getMap(id);
    const table = `<table:table>${odsHeader}<table:table-row table:number-rows-repeated="400000">${odsCell(1)}${odsCell(2)}${odsCell('x'.repeat(50_000))}</table:table-row></table:table>`;
    const started = Date.now();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    // It wrote a 20 GB document before.
    const body = await service.send('map/append', key, { map_id: id, file_type: 'excel' }, makeOds(table));
    clearInterval(sampler);
    expect((peak - idle) / 1024 / 1024).toBeLessThan(300);
    expect(body.error_code).toBe('map_too_large');
    expect(body.error).toMatch(/a map may hold at most 64 MB/);
    expect(Date.now() - started).toBeLessThan(LIMIT_MS + 10_000);
    expect(await getMap(id)).toEqual(before);
    await expect.poll(requestFiles).toEqual([]);
  });

  it('refuses an 18 kB XLSX whose rows all point at one 90,000-character shared string, with memory bounded and no file left', async () => {
    const id = await newMap();
    const before = await getMap(id);
    const rows = ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'];
    for (let r = 2; r <= 1501; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>1</v></c><c r="B${r}"><v>2</v></c><c r="C${r}" t="s"><v>3</v></c></row>`);
    const xlsx = makeXlsx({ sheets: [{ xml: sheetXml(rows.join('')) }], sharedStrings: ['lat', 'lon', 'name', 'y'.repeat(90_000)] });
    expect(xlsx.length).toBeLessThan(40_000);
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    // 1,500 rows made a public map of 135 MB before; 3,000 failed after ~90 s of retries.
    const body = await service.send('map/append', key, { map_id: id, file_type: 'excel' }, xlsx);
    clearInterval(sampler);
    expect(body.error_code).toBe('map_too_large');
    expect(await getMap(id)).toEqual(before);
    await expect.poll(requestFiles).toEqual([]);
    expect((peak - idle) / 1024 / 1024).toBeLessThan(300);
  });

  it('refuses an append that would take a map over 64 MB, and keeps the map as it was', async () => {
    const id = await newMap();
    // A map a little under the limit (content_bytes follows from the bytes of the features' texts every write keeps).
    const [{ features_bytes: realBytes }] = await service.db('maps').where({ id }).select('features_bytes');
    await service.db('maps').where({ id }).update({ features_bytes: service.db.raw('features_bytes + ? - content_bytes', [MAX_MAP_BYTES - 100]) });
    expect(Number((await service.db('maps').where({ id }).first('content_bytes')).content_bytes)).toBe(MAX_MAP_BYTES - 100);
    const before = await getMap(id);
    const body = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(5)));
    expect(body.error_code).toBe('map_too_large');
    expect(await getMap(id)).toEqual(before);
    // A small append still fits.
    await service.db('maps').where({ id }).update({ features_bytes: realBytes });
    expect((await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(5)))).import.features).toBe(5);
    const [{ content_bytes }] = await service.db('maps').where({ id }).select('content_bytes');
    expect(Number(content_bytes)).toBe(Buffer.byteLength(JSON.stringify((await getMap(id)).geojson)));
  });

  it('counts the bytes of every write: upload, append and update agree with the stored text', async () => {
    const id = await newMap(3);
    const sizeOf = async () => Number((await service.db('maps').where({ id }).first('content_bytes')).content_bytes);
    const compactLength = async () => Buffer.byteLength(JSON.stringify((await getMap(id)).geojson));
    expect(await sizeOf()).toBe(await compactLength());
    await service.send('map/append', key, { map_id: id, file_type: 'geojson', new_group: 'More' }, JSON.stringify(featureCollection(4)));
    expect(await sizeOf()).toBe(await compactLength());
    await service.call('map/update', key, { map_id: id, geojson: featureCollection(2) });
    expect(await sizeOf()).toBe(await compactLength());
  });
});

describe('database refusals', () => {
  it('are final: a value the database cannot store fails the job at once, not after retries', async () => {
    // The API refuses such text at the edge; a job started directly shows what the workers do.
    const input: UploadMapInput = {
      requestId: `upload:direct-${Date.now()}`,
      ownerId: userId,
      fileType: 'empty',
      blobKey: null,
      settings: { visibility: 'public', title: 'a\u0000b' },
      processingTimeoutMs: LIMIT_MS,
    };
    const started = Date.now();
    const error = await temporal.workflow
      .execute(WORKFLOW_TYPES.uploadMap, { taskQueue: service.config.taskQueue, workflowId: input.requestId, args: [input] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('invalid_file');
    expect(cause.message).toMatch(/database refuses/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const history = await temporal.workflow.getHandle(input.requestId).fetchHistory();
    const attempts = history.events?.filter((event) => event.markerRecordedEventAttributes) ?? [];
    expect(attempts.length).toBeLessThanOrEqual(2); // the write (once) and the clean-up
  });
});

describe.runIf(onPostgres)('the processing limit covers the final write', () => {
  it('an append that waits for the map past the limit is answered processing_timeout and never lands later', async () => {
    const id = await newMap();
    const before = await getMap(id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const locker = service.db.transaction(async (trx) => {
      await trx('maps').where({ id }).forUpdate().first();
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const body = await service.send('map/append', key, { map_id: id, file_type: 'geojson' }, JSON.stringify(featureCollection(3)));
    const took = Date.now() - started;
    release();
    await locker;
    expect(body.error_code).toBe('processing_timeout');
    expect(body.error).toBe('Processing the file took longer than the limit of 4 seconds.');
    expect(took).toBeGreaterThanOrEqual(LIMIT_MS - 500);
    expect(took).toBeLessThan(LIMIT_MS + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await getMap(id)).toEqual(before);
    await expect.poll(requestFiles).toEqual([]);
  });

  it('an upload whose write waits past the limit creates no map', async () => {
    const countMaps = async () => (await service.call('map/list', key)).owner.length as number;
    const count = await countMaps();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Hold the owner's short names, which creating a map takes.
    const locker = service.db.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtextextended('maps.short_name:' || ?, 0))", [String(userId)]);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const body = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' }, JSON.stringify(featureCollection(3)));
    release();
    await locker;
    expect(body.error_code).toBe('processing_timeout');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await countMaps()).toBe(count);
    await expect.poll(requestFiles).toEqual([]);
  });
});

describe('files left behind', () => {
  it('are swept by the clean-up once a day old, as are stored files no row names; files of running requests are kept', async () => {
    const dayAndAHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    const made: string[] = [];
    const make = (name: string, old: boolean) => {
      const file = path.join(service.blobDir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'x');
      if (old) fs.utimesSync(file, dayAndAHourAgo, dayAndAHourAgo);
      made.push(file);
      return file;
    };
    const oldUpload = make('uploads/00000000-0000-4000-8000-000000000001', true);
    const oldPartial = make('uploads/00000000-0000-4000-8000-000000000002.partial', true);
    const oldParsed = make('parsed/00000000-0000-4000-8000-000000000003', true);
    const oldScratch = make('scratch/left-behind.partial', true);
    const fresh = make('uploads/00000000-0000-4000-8000-000000000004', false);
    // A stored image no row names (a worker killed before it wrote the row): an orphan too.
    const orphanImage = make('images/00000000-0000-4000-8000-000000000005', true);
    const result = await temporal.workflow.execute(WORKFLOW_TYPES.cleanup, {
      taskQueue: service.config.taskQueue,
      workflowId: `cleanup-test-${Date.now()}`,
      args: [],
    });
    expect(result).toEqual({ blobsRemoved: 5 });
    for (const file of [oldUpload, oldPartial, oldParsed, oldScratch, orphanImage]) expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    for (const file of made) fs.rmSync(file, { force: true });
  });
});

describe('no internal errors', () => {
  it('were logged', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
