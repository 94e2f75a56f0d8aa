// Memory of an import, end to end (issue 8): one 14 MB GeoJSON MultiPolygon of 524,000 rings
// peaked at 1.68 GB (four in parallel 2.17 GB) and the process stayed at 1.78 GB when idle. The
// service runs in this process (API, worker, parser threads), so its RSS is what is measured.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  // The imports alone: each upload's static image is rendered afterwards by the render worker
  // (another process at scale; its memory is measured by `npm run bench -- render`).
  service = await startTestService({ renderWorker: false });
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

/** One feature whose geometry is a MultiPolygon of `rings` small squares (about 27 bytes each). */
function multiPolygonFile(rings: number): string {
  const parts: string[] = [];
  for (let i = 0; i < rings; i++) {
    const x = i % 179;
    const y = i % 89;
    parts.push(`[[[${x},${y}],[${x + 1},${y}],[${x + 1},${y + 1}],[${x},${y}]]]`);
  }
  return `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"title":"Squares"},"geometry":{"type":"MultiPolygon","coordinates":[${parts.join(',')}]}}]}`;
}

const MB = 1024 * 1024;
/**
 * With embedded PGlite the database's own memory is in this process too, and WebAssembly memory
 * never shrinks (four 14 MB documents took it up by about 1 GB): the bounds hold for the import
 * itself, measured where the database is a server.
 */
const onPostgres = inject('databaseUrl') !== null;
const rss = () => process.memoryUsage().rss;

describe('a 14 MB MultiPolygon', () => {
  it('imports four at once with memory bounded, and the process returns near idle afterwards', async () => {
    const file = multiPolygonFile(400_000);
    expect(file.length).toBeGreaterThan(13 * MB);
    expect(file.length).toBeLessThan(15 * MB);
    // Warm: threads started, code loaded.
    await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private' }, multiPolygonFile(10));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idle = rss();
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 25);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => service.send('map/upload', key, { file_type: 'geojson', visibility: 'private' }, file)),
    );
    clearInterval(sampler);
    for (const answer of answers) expect(answer.import).toEqual({ features: 1, skipped: [] });
    if (onPostgres) {
      // The file as objects took 1.68 GB for one and 2.17 GB for four; as read now, a few times the file.
      expect((peak - idle) / MB).toBeLessThan(300);
      // What the four imports used is given back once they are done: within 2 s alone, later
      // beside other test files (once 102 MB after 2 s), so it is watched for up to 15 s.
      await expect.poll(() => (rss() - idle) / MB, { timeout: 15_000, interval: 500 }).toBeLessThan(100);
    }
    const map = await service.call('map/get', key, { map_id: answers[0]!.id });
    expect(map.geojson.features[0].geometry.coordinates).toHaveLength(400_000);
    const [x, y] = [399_999 % 179, 399_999 % 89];
    expect(map.geojson.features[0].geometry.coordinates[399_999]).toEqual([[[x, y], [x + 1, y], [x + 1, y + 1], [x, y]]]);
    expect(service.internalErrors).toEqual([]);
  }, 120_000);
});
