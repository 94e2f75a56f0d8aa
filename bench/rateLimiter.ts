// What the rate limiter costs per request, by where its buckets live (README "Rate limits"):
// - one bucket take alone, in a row and 16 at once: in memory (the default), in PostgreSQL
//   (RATE_LIMIT_STORE=postgres, shared by API processes) and, for reference, on PGlite (the
//   embedded database, which answers one query at a time);
// - map/list end to end (authentication, the limits, one query) through the API on a scratch
//   PostgreSQL database, 8 clients at once: limits off, memory, postgres. An API request takes
//   two buckets (its address's and its key's).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../api/app.js';
import { JobGateway } from '../api/jobs.js';
import { listen } from '../api/server.js';
import { accountRepository } from '../db/accounts.js';
import { openDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { PostgresBuckets } from '../db/rateBuckets.js';
import { createScratchDatabase } from '../db/scratchDatabase.js';
import { createApiKey, createUser, verifyEmail } from '../lib/accounts.js';
import { LocalBlobStore } from '../lib/blobs/localBlobStore.js';
import { loadConfig } from '../lib/config.js';
import type { RateLimits } from '../lib/limitsConfig.js';
import { MemoryBuckets, type TokenBucketStore } from '../lib/tokenBuckets.js';
import { freePort } from '../lib/freePort.js';
import { summarize } from './stats.js';

/** Buckets no benchmark request empties: what is measured is the bookkeeping, never a refusal. */
const RULE = { burst: 1e9, perMinute: 1e9 };
const SEQUENTIAL = 3000;
const CONCURRENT = 16;
const CONCURRENT_TAKES = 6000;

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

async function takes(store: TokenBucketStore) {
  const samples: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    await store.take(`key:bench${i % 100}`, RULE, 1);
    samples.push(performance.now() - started);
  }
  const { median, p90 } = summarize(samples);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      while (next < CONCURRENT_TAKES) await store.take(`key:bench${next++ % 100}`, RULE, 1);
    }),
  );
  const perSecond = CONCURRENT_TAKES / ((performance.now() - started) / 1000);
  return { sequentialMedianUs: round(median * 1000, 1), sequentialP90Us: round(p90 * 1000, 1), [`takesPerSecond${CONCURRENT}AtOnce`]: Math.round(perSecond) };
}

async function endToEnd(databaseUrl: string, rateLimits: RateLimits | null): Promise<{ medianMs: number; p90Ms: number; requestsPerSecond: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-limits-'));
  const port = await freePort();
  const config = { ...loadConfig({ DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: databaseUrl }), rateLimits };
  const db = openDb({ databaseUrl, pgliteDir: undefined });
  const jobs = new JobGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'unused' }); // map/list starts no job
  const server = await listen(createApp({ config, db, blobs: new LocalBlobStore(path.join(dataDir, 'blobs')), jobs }), port, '127.0.0.1');
  const username = `bench${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  await createUser(accountRepository(db), { username, email: `${username}@example.com`, password: 'correct horse' });
  await verifyEmail(accountRepository(db), username);
  const { key } = await createApiKey(accountRepository(db), username, 'bench');
  const list = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/1/map/list`, { method: 'POST', headers: { authorization: `Token ${key}` } });
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    await response.arrayBuffer();
  };
  for (let i = 0; i < 200; i++) await list(); // warm-up
  const samples: number[] = [];
  const total = 3000;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < total) {
        const t = performance.now();
        await list();
        samples.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  server.close();
  server.closeAllConnections();
  await db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const { median, p90 } = summarize(samples);
  return { medianMs: round(median, 2), p90Ms: round(p90, 2), requestsPerSecond: Math.round(total / seconds) };
}

export async function benchRateLimiter() {
  const database = await createScratchDatabase('bench');
  if (!database) throw new Error('the benchmark needs PostgreSQL on 127.0.0.1:5432');
  try {
    const memory = new MemoryBuckets();
    const pg = openDb({ databaseUrl: database.url, pgliteDir: undefined });
    const pglite = openDb({ databaseUrl: undefined, pgliteDir: undefined });
    await migrateToLatest(pglite);
    const store = {
      memory: await takes(memory),
      postgres: await takes(new PostgresBuckets(pg, 60_000)),
      pglite: await takes(new PostgresBuckets(pglite, 60_000)),
    };
    await Promise.all([memory.close(), pg.destroy(), pglite.destroy()]);
    const open: RateLimits = { store: 'memory', perKey: RULE, perIp: RULE, freeFileJobs: 2, fileWeight: 1, mbWeight: 2 };
    const mapList: Record<string, unknown> = {};
    // Twice each, alternating, so neither store gets the quieter moment of a shared machine.
    for (const round of [1, 2]) {
      mapList[`off #${round}`] = await endToEnd(database.url, null);
      mapList[`memory #${round}`] = await endToEnd(database.url, open);
      mapList[`postgres #${round}`] = await endToEnd(database.url, { ...open, store: 'postgres' });
    }
    return { bucketTake: store, mapList8Clients: mapList };
  } finally {
    await database.drop();
  }
}
