// The blob stores side by side: a 50 MB upload streamed into the local directory and into S3
// (moto's S3 server on 127.0.0.1, as the tests start it: test/support/s3Server.ts), and read back.
// Each store runs in a process of its own (bench/blobStoreSide.ts, the Node flags of `npm start`):
// median time of 3 runs, and the process's peak RSS above idle. moto keeps objects in memory and
// is slower than S3 or SeaweedFS; the numbers show what the service's side costs, not S3's speed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server } from '../test/support/s3Server.js';
import { summarize } from './stats.js';

const RUNS = 3;

interface SideResult {
  runs: { putMs: number; readMs: number }[];
  idleRssMb: number;
  peakAboveIdleMb: number;
}

function runSide(env: Record<string, string>): Promise<SideResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=2', '--import', 'tsx', 'bench/blobStoreSide.ts', String(RUNS)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      const line = output.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`bench/blobStoreSide.ts exited with ${code}: ${output.slice(-2000)}`));
      else resolve(JSON.parse(line.slice('RESULT '.length)) as SideResult);
    });
  });
}

export async function benchBlobStores(): Promise<Record<string, unknown>[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-blobs-'));
  const s3 = await startS3Server();
  try {
    const rows: Record<string, unknown>[] = [];
    for (const [store, env] of [
      ['local directory', { DATA_DIR: path.join(dir, 'local') }],
      ['S3 (moto)', { DATA_DIR: path.join(dir, 's3'), ...s3.env('bench') }],
    ] as const) {
      const result = await runSide(env);
      rows.push({
        store,
        'putStream 50 MB (median ms)': summarize(result.runs.map((r) => r.putMs)).median,
        'readStream 50 MB (median ms)': summarize(result.runs.map((r) => r.readMs)).median,
        'peak RSS above idle (MB)': result.peakAboveIdleMb,
        'idle RSS (MB)': result.idleRssMb,
      });
    }
    return rows;
  } finally {
    await s3.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
