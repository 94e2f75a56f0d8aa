// A PostgreSQL cluster of the test's own (initdb into a temporary directory, a free port on
// 127.0.0.1), so a test may restart it or end its connections without touching the machine's
// cluster on 5432 that other tests use. Runs as the `postgres` user when the tests run as root
// (initdb refuses root). Removed with its directory by `remove()`, or killed if the test process
// exits first.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../lib/freePort.js';
import { onTestProcessExit } from './childProcesses.js';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries installed the Debian way (/usr/lib/postgresql/<version>/bin), or PG_BIN. */
export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => path.join(root, v, 'bin')).find((d) => fs.existsSync(path.join(d, 'initdb')));
  return dir;
}

export interface PrivatePostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** The server's log (for failure messages). */
  log(): string;
  /** Stops the server: `immediate` is a crash (no checkpoint; recovery from the WAL at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  remove(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('No PostgreSQL server binaries found under /usr/lib/postgresql (set PG_BIN to their folder).');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  /** Runs a PostgreSQL program as the user that owns the cluster. */
  const pg = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]) : run(path.join(bin, program), args);

  const port = await freePort();
  const settings = [
    `-c port=${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c max_connections=200',
    '-c shared_buffers=32MB',
    // The faults tested are process crashes, not power losses: committed data is in the WAL in
    // the OS's page cache either way, and skipping fsync keeps a shared machine's disk quiet.
    '-c fsync=off',
    '-c full_page_writes=off',
  ].join(' ');
  const postmasterPid = (): number | undefined => {
    try {
      return Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
    } catch {
      return undefined;
    }
  };
  const guard = onTestProcessExit(() => {
    const pid = postmasterPid();
    if (pid) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const failure = (what: string, error: unknown) =>
    new Error(`${what} failed: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}\nServer log:\n${readLog()}`);
  const readLog = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n') : '');

  try {
    await pg('initdb', ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  } catch (error) {
    guard.release();
    fs.rmSync(dir, { recursive: true, force: true });
    throw failure('initdb of a private PostgreSQL cluster', error);
  }

  const cluster: PrivatePostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    log: readLog,
    async start() {
      try {
        await pg('pg_ctl', ['-D', data, '-l', logFile, '-o', settings, '-w', '-t', '60', 'start']);
      } catch (error) {
        throw failure('Starting the private PostgreSQL cluster', error);
      }
    },
    async stop(mode = 'fast') {
      if (!postmasterPid()) return;
      try {
        await pg('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      } catch (error) {
        throw failure('Stopping the private PostgreSQL cluster', error);
      }
    },
    async remove() {
      await cluster.stop('immediate').catch(() => {
        const pid = postmasterPid();
        if (pid) process.kill(pid, 'SIGKILL');
      });
      guard.release();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start().catch(async (error) => {
    await cluster.remove();
    throw error;
  });
  return cluster;
}
