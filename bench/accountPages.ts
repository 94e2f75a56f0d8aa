// How long the account forms take to answer for an address (or name) that has an account and for
// one that has not (issue 24: the time must not tell them apart). The API in this process on a
// scratch PostgreSQL database, its mail going to a local SMTP server (test/support/smtpInbox.ts)
// as in production; requests one at a time, the two kinds interleaved, a pause after each so the
// mail work that follows an answer is done before the next request (it is what must not be in
// the answer). Each request comes from an address of its own (X-Forwarded-For, trusted here), and
// every account or address is used once, so no limit is met.
// - /reset: an account's address against an unknown one;
// - /signup: a new address against an account's (new usernames both);
// - /login with a wrong password: an account's username against an unknown name (both run the
//   password hash: the time is argon2's).
import { hash as argon2Hash } from '@node-rs/argon2';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../api/app.js';
import { JobGateway } from '../api/jobs.js';
import { listen } from '../api/server.js';
import { accountRepository } from '../db/accounts.js';
import { openDb } from '../db/connection.js';
import { createScratchDatabase } from '../db/scratchDatabase.js';
import { LocalBlobStore } from '../lib/blobs/localBlobStore.js';
import { loadConfig } from '../lib/config.js';
import { freePort } from '../lib/freePort.js';
import { startSmtpInbox } from '../test/support/smtpInbox.js';
import { summarize } from './stats.js';

const RUNS = { reset: 150, signup: 60, login: 40 };
const PAUSE_MS = 40;

const round = (value: number) => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchAccountPages() {
  const database = await createScratchDatabase('bench');
  if (!database) throw new Error('the benchmark needs PostgreSQL on 127.0.0.1:5432');
  const inbox = await startSmtpInbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-accounts-'));
  const port = await freePort();
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: database.url, RATE_LIMITS: 'off', TRUST_PROXY: '1' }),
    smtpUrl: inbox.url,
    publicUrl: `http://127.0.0.1:${port}`,
  };
  const db = openDb({ databaseUrl: database.url, pgliteDir: undefined });
  const jobs = new JobGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'unused' }); // the account pages start no job
  const server = await listen(createApp({ config, db, blobs: new LocalBlobStore(path.join(dataDir, 'blobs')), jobs }), port, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  try {
    // Accounts to name, all with one password hash (made once: hashing each would take minutes).
    const passwordHash = await argon2Hash('correct horse');
    const stamp = Date.now().toString(36);
    const accounts: string[] = [];
    for (let i = 0; i < RUNS.reset + RUNS.signup + RUNS.login; i++) {
      const username = `acct${stamp}${i}`;
      await accountRepository(db).insertUser({ username, email: `${username}@example.com`, passwordHash, emailVerified: true });
      accounts.push(username);
    }
    // The form token of one browser, sent with every post.
    const page = await fetch(`${base}/signup`);
    const csrf = /mps_csrf=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1]!;
    let address = 0;
    const post = async (path: string, form: Record<string, string>): Promise<{ ms: number; status: number }> => {
      address++;
      const started = performance.now();
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: `mps_csrf=${csrf}`,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        },
        body: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
      });
      await response.arrayBuffer();
      const ms = performance.now() - started;
      await sleep(PAUSE_MS);
      return { ms, status: response.status };
    };
    /** Interleaved runs of the two kinds: their answer times and statuses. */
    const compare = async (runs: number, known: (i: number) => Promise<{ ms: number; status: number }>, unknown: (i: number) => Promise<{ ms: number; status: number }>) => {
      const times = { known: [] as number[], unknown: [] as number[] };
      const statuses = { known: new Set<number>(), unknown: new Set<number>() };
      for (let i = 0; i < 5; i++) await unknown(-1 - i); // warm-up
      for (let i = 0; i < runs; i++) {
        for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
          const { ms, status } = await (kind === 'known' ? known(i) : unknown(i));
          times[kind].push(ms);
          statuses[kind].add(status);
        }
      }
      const k = summarize(times.known);
      const u = summarize(times.unknown);
      return {
        runs,
        accountMedianMs: round(k.median),
        accountP90Ms: round(k.p90),
        noAccountMedianMs: round(u.median),
        noAccountP90Ms: round(u.p90),
        medianRatio: round(k.median / u.median),
        statuses: { account: [...statuses.known].join(','), noAccount: [...statuses.unknown].join(',') },
      };
    };
    let next = 0;
    const account = () => accounts[next++]!;
    return {
      reset: await compare(
        RUNS.reset,
        () => post('/reset', { email: `${account()}@example.com` }),
        (i) => post('/reset', { email: `nobody${stamp}${i}@example.test` }),
      ),
      signup: await compare(
        RUNS.signup,
        (i) => post('/signup', { username: `takenaddr${stamp}${i}`, email: `${account()}@example.com`, password: 'long enough pw' }),
        (i) => post('/signup', { username: `newaddr${stamp}${i}`, email: `new${stamp}${i}@example.test`, password: 'long enough pw' }),
      ),
      loginWrongPassword: await compare(
        RUNS.login,
        () => post('/login', { login: account(), password: 'wrong password' }),
        (i) => post('/login', { login: `nobody${stamp}${i}`, password: 'wrong password' }),
      ),
      mailsSent: inbox.mailsTo('@').length,
    };
  } finally {
    server.close();
    server.closeAllConnections();
    await db.destroy();
    await inbox.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
