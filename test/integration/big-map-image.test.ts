// A big map's static image does not hold up the service (issue 24): drawn in a render thread
// (activities/renderPool.ts), while this process's event loop — the one that answers requests in
// the embedded service, and here in the tests — stays mostly idle. Before, the renderer drew on
// the event loop: a 38,000-feature map kept it busy for seconds. The image is drawn all the
// same, at its sizes.
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** The imports bench's mix: four points to a line of 20 positions, spread over the world (deterministic). */
function bigMap(features: number): string {
  let state = 1;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const position = () => [+(random() * 360 - 180).toFixed(4), +(random() * 170 - 85).toFixed(4)];
  const items = Array.from({ length: features }, (_, i) =>
    i % 5 === 4
      ? { type: 'Feature', geometry: { type: 'LineString', coordinates: Array.from({ length: 20 }, position) }, properties: { title: `Line ${i}`, color: '#0000ff' } }
      : { type: 'Feature', geometry: { type: 'Point', coordinates: position() }, properties: { title: `Place ${i}`, color: '#ff0000' } },
  );
  return JSON.stringify({ type: 'FeatureCollection', features: items });
}

describe('a big map’s static image', () => {
  it('is drawn off the event loop: 38,000 features keep it busy less than half the time of the render', async () => {
    const owner = await service.newUser();
    const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public' }, bigMap(38_000));
    expect(answer.error).toBeUndefined();
    const mapId = answer.id as number;
    const before = performance.eventLoopUtilization();
    const deadline = Date.now() + 120_000;
    let row: { image_files: unknown };
    while ((row = await service.db('maps').where({ id: mapId }).first('image_files')).image_files === null) {
      if (Date.now() > deadline) throw new Error('the big map got no image');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const busy = performance.eventLoopUtilization(before);
    console.log(`event loop utilization during the render: ${busy.utilization.toFixed(2)}`);
    expect(busy.utilization).toBeLessThan(0.5);
    const files = (typeof row.image_files === 'string' ? JSON.parse(row.image_files) : row.image_files) as { static: { width: number; height: number } };
    expect([files.static.width, files.static.height]).toEqual([1200, 630]);
    const path = new URL(answer.url as string).pathname;
    const png = Buffer.from(await (await fetch(`${service.url}${path}/static.png`)).arrayBuffer());
    const { info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1200, 630]);
  });
});
