// End-to-end API latency of the embedded service (scripts/start.ts, a real Temporal dev server,
// PostgreSQL): 50 map/upload calls with a 10-feature GeoJSON, and 50 map/get calls on a
// 10,000-feature map beside psql reading the same row.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../db/connection.js';
import { createScratchDatabase } from '../db/scratchDatabase.js';
import { createApiKey, createUser } from '../lib/accounts.js';
import { waitFor } from '../lib/waitFor.js';
import { freePort } from '../scripts/freePort.js';
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
  const database = await createScratchDatabase('bench');
  if (!database) throw new Error('the API latency benchmark needs PostgreSQL on 127.0.0.1:5432');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-'));
  const port = await freePort();
  const service = spawn(path.resolve('node_modules/.bin/tsx'), ['scripts/start.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: database.url, TEMPORAL_ADDRESS: '' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the service', async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200, 120_000);
    const db = openDb({ databaseUrl: database.url, pgliteDir: undefined });
    await createUser(db, { username: 'bench', email: 'bench@example.com', password: 'benchmark', verified: true });
    const { key } = await createApiKey(db, 'bench');
    await db.destroy();
    const auth = { authorization: `Token ${key}` };

    const upload = async (body: string) => {
      const response = await fetch(`${base}/api/1/map/upload`, {
        method: 'POST',
        headers: { ...auth, 'service-api-arg': '{"file_type":"geojson","visibility":"private"}' },
        body,
      });
      const answer = (await response.json()) as { id?: number; error?: string };
      if (!answer.id) throw new Error(`upload failed: ${answer.error}`);
      return answer.id;
    };
    const small = collection(10);
    await upload(small); // warm-up: first workflow, first connections
    const uploads = await timeEach(RUNS, async () => void (await upload(small)));

    const bigId = await upload(collection(10_000));
    const get = async () => {
      const response = await fetch(`${base}/api/1/map/get`, { method: 'POST', headers: auth, body: JSON.stringify({ map_id: bigId }) });
      await response.arrayBuffer();
    };
    await get();
    const gets = await timeEach(RUNS, get);
    const mapBytes = (await (await fetch(`${base}/api/1/map/get`, { method: 'POST', headers: auth, body: JSON.stringify({ map_id: bigId }) })).arrayBuffer()).byteLength;

    const psqlArgs = ['-X', '-A', '-t', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', database.name, '-o', '/dev/null', '-c', `select geojson::text from maps where id = ${bigId}`];
    const psql = await timeEach(RUNS, async () => void execFileSync('psql', psqlArgs));

    return {
      upload_10_features_ms: summarize(uploads),
      get_10000_features_ms: summarize(gets),
      get_answer_bytes: mapBytes,
      psql_read_same_row_ms: summarize(psql),
      get_vs_psql_ratio: +(summarize(gets).median / summarize(psql).median).toFixed(2),
    };
  } finally {
    service.kill('SIGINT');
    await new Promise((resolve) => service.once('exit', resolve));
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
