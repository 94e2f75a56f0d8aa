// The embedded service as the benchmarks run it: `scripts/start.ts` in one Node process (API,
// worker and parser threads; its own Temporal dev server) on a scratch PostgreSQL database.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../db/connection.js';
import { createScratchDatabase } from '../db/scratchDatabase.js';
import { createApiKey, createUser } from '../lib/accounts.js';
import { waitFor } from '../lib/waitFor.js';
import { freePort } from '../scripts/freePort.js';
import { accountRepository } from '../db/accounts.js';

export interface BenchService {
  base: string;
  key: string;
  databaseName: string;
  /** The process that runs the API and the worker (memory is measured on it). */
  pid: number;
  /** POST a file operation and return the answer (throws on an error answer). */
  send(op: string, args: object, body?: Uint8Array | string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startBenchService(): Promise<BenchService> {
  const database = await createScratchDatabase('bench');
  if (!database) throw new Error('the benchmarks need PostgreSQL on 127.0.0.1:5432');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-'));
  const port = await freePort();
  // node --import tsx (not the tsx wrapper): the measured pid is the service itself. The same
  // Node flags as `npm start` (package.json).
  const child = spawn(process.execPath, ['--max-semi-space-size=2', '--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: database.url, TEMPORAL_ADDRESS: '' },
    // BENCH_SERVICE_LOGS=1 shows the service's own output (for looking into a slow case).
    stdio: process.env.BENCH_SERVICE_LOGS ? 'inherit' : 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('the service', async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200, 120_000);
  const db = openDb({ databaseUrl: database.url, pgliteDir: undefined });
  await createUser(accountRepository(db), { username: 'bench', email: 'bench@example.com', password: 'benchmark', verified: true });
  const { key } = await createApiKey(accountRepository(db), 'bench');
  await db.destroy();
  return {
    base,
    key,
    databaseName: database.name,
    pid: child.pid!,
    async send(op, args, body) {
      const response = await fetch(`${base}/api/1/${op}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'service-api-arg': JSON.stringify(args) },
        body,
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (answer.error) throw new Error(`${op} failed: ${answer.error}`);
      return answer;
    },
    async stop() {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in bytes (Linux). */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Runs fn while sampling the process's RSS every 10 ms; returns fn's result and the peak. */
export async function withPeakRss<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10);
  try {
    return { result: await fn(), peak };
  } finally {
    clearInterval(timer);
  }
}
