// A Temporal dev server of the test's own (`temporal server start-dev` from the installed CLI,
// scripts/temporalBinary.ts) with its SQLite file in a given directory, on a port that stays the
// same across restarts: a test can kill it and start it again on the same file, and clients and
// workers find it where it was.
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../../lib/freePort.js';
import { ensureTemporalBinary } from '../../scripts/temporalBinary.js';
import { startChild, type Child } from './childProcesses.js';

export interface TemporalServer {
  address: string;
  dbFile: string;
  /** The running server process (undefined while stopped). */
  child(): Child | undefined;
  /** kill -9 (a crash) or SIGTERM; resolves once it has exited. */
  stop(how?: 'kill' | 'terminate'): Promise<void>;
  /** Starts it again on the same port and SQLite file; resolves once it answers. */
  start(): Promise<void>;
}

/** Resolves once the server answers a namespace lookup (it accepts connections a little earlier). */
async function waitUntilServing(address: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitStatus()) break;
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.withDeadline(Date.now() + 3_000, () => connection.workflowService.describeNamespace({ namespace: 'default' }));
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`The Temporal dev server at ${address} did not answer within ${timeoutMs / 1000} s (${String(lastError)}). Its last lines:\n${child.output()}`);
}

export async function startTemporalServer(dir: string): Promise<TemporalServer> {
  const binary = ensureTemporalBinary();
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const dbFile = path.join(dir, 'temporal.sqlite');
  const args = [
    'server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless', '--log-level', 'warn',
    '--db-filename', dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal',
    // As scripts/temporalDevServer.ts: activities handed straight to the worker that schedules them.
    '--dynamic-config-value', 'system.enableActivityEagerExecution=true',
    '--dynamic-config-value', 'history.workflowIdReuseMinimalInterval="0s"',
  ];
  let current: Child | undefined;
  let restarts = 0;
  const server: TemporalServer = {
    address,
    dbFile,
    child: () => current,
    async stop(how = 'kill') {
      if (!current) return;
      if (how === 'kill') await current.kill();
      else await current.stop();
      current = undefined;
    },
    async start() {
      if (current) throw new Error('the Temporal dev server is running already');
      current = startChild(`temporal${restarts++ ? ` (start ${restarts})` : ''}`, binary, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME } });
      await waitUntilServing(address, current, 60_000);
    },
  };
  await server.start();
  return server;
}
