// End-to-end API latency of the embedded service: 50 map/upload calls with a 10-feature
// GeoJSON, and 50 map/get calls on a 10,000-feature map beside psql reading the same row.
import { execFileSync } from 'node:child_process';
import { startBenchService } from './service.js';
import { summarize, timeEach } from './stats.js';

const RUNS = 50;

const collection = (count: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: count }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [(i % 360) - 180, (i % 170) - 85] },
      properties: { title: `Point ${i}`, description: 'A point of the benchmark map' },
    })),
  });

export async function benchApiLatency(): Promise<Record<string, unknown>> {
  const service = await startBenchService();
  try {
    const upload = async (body: string) =>
      (await service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, body)).id as number;
    const small = collection(10);
    await upload(small); // warm-up: first workflow, first connections
    const uploads = await timeEach(RUNS, async () => void (await upload(small)));

    const bigId = await upload(collection(10_000));
    const get = async () => {
      const response = await fetch(`${service.base}/api/1/map/get`, {
        method: 'POST',
        headers: { authorization: `Token ${service.key}` },
        body: JSON.stringify({ map_id: bigId }),
      });
      return (await response.arrayBuffer()).byteLength;
    };
    const mapBytes = await get();
    const gets = await timeEach(RUNS, async () => void (await get()));

    const psqlArgs = ['-X', '-A', '-t', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', service.databaseName, '-o', '/dev/null', '-c', `select geojson::text from maps where id = ${bigId}`];
    const psql = await timeEach(RUNS, async () => void execFileSync('psql', psqlArgs));

    return {
      upload_10_features_ms: summarize(uploads),
      get_10000_features_ms: summarize(gets),
      get_answer_bytes: mapBytes,
      psql_read_same_row_ms: summarize(psql),
      get_vs_psql_ratio: +(summarize(gets).median / summarize(psql).median).toFixed(2),
    };
  } finally {
    await service.stop();
  }
}
