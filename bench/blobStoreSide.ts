// One side of the blob store benchmark (bench/blobStores.ts), alone in its own process so that its
// memory is its own: opens the store the environment names (as the service does, lib/config.ts),
// writes one small blob to warm up, then `runs` times streams a 50 MB body of 64 kB chunks (what
// an HTTP upload looks like) into it with putStream, reads it back with readStream, and deletes
// it. Prints one line `RESULT {json}` with each run's times and the peak RSS above the idle RSS
// (sampled every 10 ms in this process).
//   BLOB_STORE=… node --max-semi-space-size=2 --import tsx bench/blobStoreSide.ts <runs>
import { Readable } from 'node:stream';
import { openBlobStore } from '../lib/blobs/index.js';
import { loadConfig } from '../lib/config.js';

const BODY_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 7);
const runs = Number(process.argv[2] ?? 3);
const store = openBlobStore(loadConfig());

const body = () =>
  Readable.from(
    (function* () {
      for (let at = 0; at < BODY_BYTES; at += CHUNK.length) yield Buffer.from(CHUNK); // a fresh buffer per chunk, as a socket gives
    })(),
  );

await store.delete((await store.putBuffer('uploads', Buffer.from('warm-up'))).key);
const idle = process.memoryUsage().rss;
let peak = idle;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
const results: { putMs: number; readMs: number }[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const { key, size } = await store.putStream('uploads', body(), null);
  const stored = performance.now();
  let read = 0;
  for await (const chunk of store.readStream(key)) read += (chunk as Buffer).length;
  if (size !== BODY_BYTES || read !== BODY_BYTES) throw new Error(`stored ${size} and read ${read} bytes of ${BODY_BYTES}`);
  results.push({ putMs: Math.round(stored - started), readMs: Math.round(performance.now() - stored) });
  await store.delete(key);
}
clearInterval(sampler);
console.log(`RESULT ${JSON.stringify({ runs: results, idleRssMb: Math.round(idle / 2 ** 20), peakAboveIdleMb: Math.round((peak - idle) / 2 ** 20) })}`);
