// End-to-end API latency of the embedded service on PostgreSQL:
// - map/upload of a 10-feature GeoJSON (50 runs), with where its time goes, read from the
//   workflows' histories in Temporal;
// - map/get of a 10,000- and a 200,000-feature map (20 runs each) beside psql running the same
//   SQL on the same content (the head, then the features in order with COPY);
// - map/append of one feature to an empty map and to the 200,000-feature map (20 runs each,
//   alternating): a write costs what it changes, not what the map holds.
import { spawn } from 'node:child_process';
import { uploadTimeline, type UploadTimeline } from './uploadTimeline.js';
import { startBenchService, type BenchService } from './service.js';
import { summarize, timeEach } from './stats.js';

const UPLOADS = 50;
const RUNS = 20;
const MB = 1024 * 1024;

const collection = (count: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: count }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [(i % 360) - 180, (i % 170) - 85] },
      properties: { title: `Point ${i}`, description: 'A point of the benchmark map' },
    })),
  });

/** A CSV of `count` places (a compact way to make a large map through the API). */
const places = (count: number) =>
  `lat,lon,name,description\n${Array.from({ length: count }, (_, i) => `${((i * 7) % 17000) / 100 - 85},${((i * 13) % 36000) / 100 - 180},Place ${i},A place of the benchmark map`).join('\n')}\n`;

async function emptyMap(service: BenchService): Promise<number> {
  return (await service.send('map/upload', { file_type: 'empty', visibility: 'private' })).id as number;
}

/** map/get, its answer read to the end and dropped (as psql's goes to /dev/null). */
async function readMap(service: BenchService, mapId: number): Promise<number> {
  const response = await fetch(`${service.base}/api/1/map/get`, {
    method: 'POST',
    headers: { authorization: `Token ${service.key}` },
    body: JSON.stringify({ map_id: mapId }),
  });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return bytes;
}

/**
 * psql running map/get's SQL for the document (db/mapDocument.ts): the head, then the features
 * in order (COPY, binary; sorting disabled, as there), its output dropped. Run asynchronously: a blocked event loop would keep the HTTP
 * client from noticing that the service closed an idle connection.
 */
async function psqlRead(service: BenchService, mapId: number): Promise<void> {
  const psql = spawn(
    'psql',
    [
      '-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', service.databaseName!,
      '-c', 'set enable_sort = off',
      '-c', `select head from maps where id = ${mapId}`,
      '-c', `copy (select feature from map_features where map_id = ${mapId} order by ordinal) to stdout with (format binary)`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const code = await new Promise((resolve) => psql.once('exit', resolve));
  if (code !== 0) throw new Error(`psql exited with ${code}`);
}

/** map/get and psql alternately (so a machine that slows down or speeds up weighs on both alike). */
async function compareGet(service: BenchService, mapId: number) {
  const bytes = await readMap(service, mapId);
  await psqlRead(service, mapId); // warm-up
  const getSamples: number[] = [];
  const psqlSamples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    getSamples.push(...(await timeEach(1, async () => void (await readMap(service, mapId)))));
    psqlSamples.push(...(await timeEach(1, () => psqlRead(service, mapId))));
  }
  const gets = summarize(getSamples);
  const psql = summarize(psqlSamples);
  return {
    answer_mb: +(bytes / MB).toFixed(2),
    get_ms: gets,
    psql_ms: psql,
    ratio: +(gets.median / psql.median).toFixed(2),
    get_mb_per_s: +(bytes / MB / (gets.median / 1000)).toFixed(0),
  };
}

const round = (timeline: UploadTimeline) => Object.fromEntries(Object.entries(timeline).map(([k, v]) => [k, +v.toFixed(1)]));

export async function benchApiLatency(): Promise<Record<string, unknown>> {
  const service = await startBenchService();
  try {
    const upload = async (body: string) => (await service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, body)).id as number;
    const small = collection(10);
    await upload(small); // warm-up: first workflow, first connections
    const started = new Date();
    const uploads = summarize(await timeEach(UPLOADS, async () => void (await upload(small))));
    const timeline = await uploadTimeline(service.temporalAddress, started);
    // The same uploads a quarter of a second apart, as one client working by hand would send
    // them: back to back, the dev server's matching hands out tasks 30–40 ms later after about
    // ten workflows in a row (see bench/README.md).
    const pacedSince = new Date();
    const paced = summarize(
      await timeEach(UPLOADS, async () => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const begun = performance.now();
        await upload(small);
        return performance.now() - begun;
      }),
    );
    const pacedTimeline = await uploadTimeline(service.temporalAddress, pacedSince);

    const mid = await upload(collection(10_000));
    const large = await emptyMap(service);
    await service.send('map/append', { map_id: large, file_type: 'csv' }, places(200_000));
    const get10k = await compareGet(service, mid);
    const get200k = await compareGet(service, large);

    const one = collection(1);
    const empties: number[] = [];
    for (let i = 0; i < RUNS; i++) empties.push(await emptyMap(service));
    const toEmpty: number[] = [];
    const toLarge: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const [target, samples] of [[empties[i]!, toEmpty], [large, toLarge]] as const) {
        const begun = performance.now();
        await service.send('map/append', { map_id: target, file_type: 'geojson' }, one);
        samples.push(performance.now() - begun);
      }
    }
    const appendEmpty = summarize(toEmpty);
    const appendLarge = summarize(toLarge);
    return {
      upload_10_features_back_to_back_ms: uploads,
      upload_timeline_back_to_back_median_ms: round(timeline),
      upload_10_features_paced_ms: paced,
      upload_timeline_paced_median_ms: round(pacedTimeline),
      get_10000_features: get10k,
      get_200000_features: get200k,
      append_1_feature_to_empty_ms: appendEmpty,
      append_1_feature_to_200000_ms: appendLarge,
      append_ratio: +(appendLarge.median / appendEmpty.median).toFixed(2),
    };
  } finally {
    await service.stop();
  }
}
