// The embedded service as the benchmarks run it: `scripts/start.ts` in one Node process (API,
// worker and parser threads; its own Temporal dev server) on a scratch PostgreSQL database, or
// on its embedded PGlite (what a new user's `npm start` runs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../db/connection.js';
import { createScratchDatabase } from '../db/scratchDatabase.js';
import { accountRepository } from '../db/accounts.js';
import { createApiKey, createUser } from '../lib/accounts.js';
import { waitFor } from '../lib/waitFor.js';
import { readEmbeddedState } from '../scripts/embeddedState.js';
import { freePort } from '../lib/freePort.js';

export type BenchDatabase = 'pg' | 'pglite';

export interface BenchService {
  base: string;
  key: string;
  /** The scratch PostgreSQL database (undefined on PGlite). */
  databaseName: string | undefined;
  /** Its connection URL (undefined on PGlite). */
  databaseUrl: string | undefined;
  /** The process that runs the API and the worker (memory is measured on it). */
  pid: number;
  /** The service's own Temporal dev server. */
  temporalAddress: string;
  /** Another verified user with an API key of its own (benchmarks of several accounts); returns the key. */
  newAccount(username: string): Promise<string>;
  /** POST a file operation and return the answer (throws on an error answer). */
  send(op: string, args: object, body?: Uint8Array | string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** `env`: settings of the service (lib/config.ts) beside the benchmark's own, such as IMAGE_REFRESH_SPACING. */
export async function startBenchService(kind: BenchDatabase = 'pg', env: Record<string, string> = {}): Promise<BenchService> {
  const database = kind === 'pg' ? await createScratchDatabase('bench') : undefined;
  if (kind === 'pg' && !database) throw new Error('the benchmarks need PostgreSQL on 127.0.0.1:5432');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-'));
  const port = await freePort();
  // node --import tsx (not the tsx wrapper): the measured pid is the service itself. The same
  // Node flags as `npm start` (package.json). An empty BENCH_NODE_ARGS adds nothing (not an
  // empty argument, which node would take for the script).
  const extraArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
  const child = spawn(process.execPath, ['--max-semi-space-size=2', ...extraArgs, '--import', 'tsx', 'scripts/start.ts'], {
    // No rate limits unless a benchmark asks for them (the limiter's own benchmark).
    env: { ...process.env, RATE_LIMITS: 'off', ...env, DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: database?.url ?? '', TEMPORAL_ADDRESS: '' },
    // BENCH_SERVICE_LOGS=1 shows the service's own output (for looking into a slow case).
    stdio: ['ignore', 'pipe', process.env.BENCH_SERVICE_LOGS ? 'inherit' : 'ignore'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    if (output.length < 100_000) output += chunk.toString();
    if (process.env.BENCH_SERVICE_LOGS) process.stdout.write(chunk);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  let temporalAddress: string | undefined;
  let key: string;
  try {
    await waitFor('the service', async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200, 120_000);
    temporalAddress = /Temporal dev server at (\S+);/.exec(output)?.[1];
    if (!temporalAddress) throw new Error('the service did not say where its Temporal dev server is');
    key = database ? await accountOnDatabase(database.url, BENCH_USER) : await accountThroughService(dataDir, BENCH_USER);
  } catch (error) {
    // A service that did not come up leaves no process, database or data directory behind.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    base,
    key,
    databaseName: database?.name,
    databaseUrl: database?.url,
    pid: child.pid!,
    temporalAddress,
    newAccount(username) {
      const user = { ...BENCH_USER, username, email: `${username}@example.com` };
      return database ? accountOnDatabase(database.url, user) : accountThroughService(dataDir, user);
    },
    async send(op, args, body) {
      const response = await fetch(`${base}/api/1/${op}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'service-api-arg': JSON.stringify(args) },
        body: body as string | Uint8Array<ArrayBuffer> | undefined,
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (answer.error) throw new Error(`${op} failed: ${answer.error}`);
      return answer;
    },
    async stop() {
      child.kill('SIGINT');
      await exited;
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const BENCH_USER = { username: 'bench', email: 'bench@example.com', password: 'benchmark', verified: true };

type BenchUser = typeof BENCH_USER;

async function accountOnDatabase(url: string, user: BenchUser): Promise<string> {
  const db = openDb({ databaseUrl: url, pgliteDir: undefined });
  try {
    await createUser(accountRepository(db), user);
    return (await createApiKey(accountRepository(db), user.username)).key;
  } finally {
    await db.destroy();
  }
}

/** PGlite belongs to the service's process: the account is made through its operator endpoint (as `npm run admin` does). */
async function accountThroughService(dataDir: string, user: BenchUser): Promise<string> {
  const state = readEmbeddedState(dataDir);
  if (!state) throw new Error('the embedded service wrote no state file');
  const admin = async (request: object): Promise<string[]> => {
    const response = await fetch(`${state.url}/internal/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-token': state.token },
      body: JSON.stringify(request),
    });
    const body = (await response.json()) as { lines?: string[]; error?: string };
    if (body.error) throw new Error(body.error);
    return body.lines ?? [];
  };
  await admin({ command: 'create-user', ...user });
  return (await admin({ command: 'create-api-key', username: user.username })).at(-1)!;
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
