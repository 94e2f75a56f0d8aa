// The upload of the largest map the limits allow, with its static image, while 20 other clients
// keep sending requests (issue 24's benchmark): a 14.5 MB KML of 37,807 features (the imports
// bench's file; map/upload takes files up to 15 MB), uploaded to the embedded service
// (`npm start`: one process, on PGlite as a new user runs it, or on PostgreSQL) while 20 clients,
// each with a keep-alive connection, send a request every second (20 a second in all: people
// using the service, not a load test; on PGlite, whose database runs on the event loop, 80 a
// second of map/get alone took most of it): `/healthz` and `map/get` of a 10-feature map in
// turn. Reported: the clients' request times (p50, p99, max) alone before the upload (the
// reference); while the upload is on its way (the parse in a thread, the write: on PGlite the
// database's work is the event loop's); and from its answer until its image exists (the render:
// what issue 24 is about); the upload's answer, the image's arrival after it. Three uploads in a
// row, each waiting for its image.
import { percentile } from './stats.js';
import * as generate from './generate/files.js';
import { waitForImage } from './imageWait.js';
import { startBenchService, type BenchDatabase, type BenchService } from './service.js';

const SIZE = Math.floor(14.5 * 1024 * 1024);
const CLIENTS = 20;
const RUNS = 3;
const REFERENCE_MS = 5_000;
/** Each client's requests start this far apart (or right after the last answer, when it took longer). */
const PACE_MS = 1_000;

const small = JSON.stringify({
  type: 'FeatureCollection',
  features: Array.from({ length: 10 }, (_, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [i, i] }, properties: { title: `Point ${i}` } })),
});

/** 20 clients sending requests until stopped; each request's time in ms. */
function startClients(service: BenchService, mapId: number) {
  let running = true;
  let samples: number[] = [];
  let errors = 0;
  const client = async (n: number) => {
    // The clients' requests spread over the pace, not all at once.
    await new Promise((resolve) => setTimeout(resolve, (n * PACE_MS) / CLIENTS));
    for (let i = n; running; i++) {
      const started = performance.now();
      try {
        const response =
          i % 2 === 0
            ? await fetch(`${service.base}/healthz`)
            : await fetch(`${service.base}/api/1/map/get`, { method: 'POST', headers: { authorization: `Token ${service.key}` }, body: JSON.stringify({ map_id: mapId }) });
        await response.arrayBuffer();
        if (!response.ok) errors++;
      } catch {
        errors++;
      }
      const took = performance.now() - started;
      samples.push(took);
      if (took < PACE_MS) await new Promise((resolve) => setTimeout(resolve, PACE_MS - took));
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  return {
    /** The samples since the last take, and starts a new set. */
    take() {
      const taken = samples;
      samples = [];
      return taken;
    },
    errors: () => errors,
    async stop() {
      running = false;
      await done;
    },
  };
}

const stats = (samples: number[]) => ({
  requests: samples.length,
  p50_ms: +percentile(samples, 0.5).toFixed(1),
  p99_ms: +percentile(samples, 0.99).toFixed(1),
  max_ms: +Math.max(...samples).toFixed(1),
});

async function benchOn(database: BenchDatabase, kml: string) {
  const service = await startBenchService(database);
  try {
    const mapId = (await service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, small)).id as number;
    const clients = startClients(service, mapId);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // connections open, code warm
    clients.take();
    await new Promise((resolve) => setTimeout(resolve, REFERENCE_MS));
    const reference = clients.take();
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const answer = await service.send('map/upload', { file_type: 'kml', visibility: 'private' }, kml);
      const answered = performance.now() - started;
      const during = stats(clients.take());
      const image = await waitForImage(service, answer.url as string);
      const rendering = stats(clients.take());
      runs.push({
        run: run + 1,
        features: (answer.import as { features: number }).features,
        upload_answer_s: +(answered / 1000).toFixed(2),
        image_after_answer_s: +(image / 1000).toFixed(2),
        upload_clients_p50_ms: during.p50_ms,
        upload_clients_p99_ms: during.p99_ms,
        render_clients_requests: rendering.requests,
        render_clients_p50_ms: rendering.p50_ms,
        render_clients_p99_ms: rendering.p99_ms,
        render_clients_max_ms: rendering.max_ms,
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      clients.take();
    }
    await clients.stop();
    return { database, clients_alone: stats(reference), errors: clients.errors(), runs };
  } finally {
    await service.stop();
  }
}

export async function benchBigUpload() {
  const kml = generate.kml(SIZE);
  const only = process.argv[3];
  const databases: BenchDatabase[] = only === 'pg' || only === 'pglite' ? [only] : ['pglite', 'pg'];
  const results = [];
  for (const database of databases) results.push(await benchOn(database, kml));
  return results;
}
