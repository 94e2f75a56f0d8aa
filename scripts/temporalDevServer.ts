// Starts `temporal server start-dev` on free ports and waits until it accepts connections.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { ensureTemporalBinary } from './temporalBinary.js';
import { freePort } from '../lib/freePort.js';

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** SQLite file; undefined keeps everything in memory. */
  dbFile?: string;
  ui?: boolean;
  log?: (line: string) => void;
  /** Extra dynamic config, e.g. faster workflow id reuse in tests. */
  dynamicConfig?: Record<string, string>;
  /**
   * In a process group of its own: a Ctrl-C in the terminal then reaches only our process, which
   * stops the server last, after the work in flight has finished (npm start).
   */
  ownProcessGroup?: boolean;
}

/**
 * An activity scheduled on the task queue of the worker that completes the workflow task goes
 * straight to that worker instead of through the server's matching (the worker reserves up to
 * 3 such slots per workflow task by default).
 */
const DEFAULT_DYNAMIC_CONFIG: Record<string, string> = { 'system.enableActivityEagerExecution': 'true' };

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startTemporalDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const binary = ensureTemporalBinary(options.log);
  const port = await freePort();
  const uiPort = options.ui ? await freePort() : undefined;
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
  if (options.dbFile) {
    // Write-ahead logging without an fsync per write: each workflow step costs milliseconds
    // instead of tens of them, and a crash still leaves a consistent database.
    args.push('--db-filename', options.dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  // The UI must not try to fetch its news feed from the internet.
  args.push(...(uiPort ? ['--ui-port', String(uiPort), '--ui-disable-news-fetch'] : ['--headless']));
  const dynamicConfig = { ...DEFAULT_DYNAMIC_CONFIG, ...options.dynamicConfig };
  for (const [key, value] of Object.entries(dynamicConfig)) {
    args.push('--dynamic-config-value', `${key}=${value}`);
  }
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: options.ownProcessGroup ?? false });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 60_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null) throw new Error(`temporal server start-dev exited: ${stderr.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal server start-dev did not listen on ${port} within 60 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : undefined,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
