// Starts `temporal server start-dev` on free ports and waits until it answers.
import { spawn, type ChildProcess } from 'node:child_process';
import http2 from 'node:http2';
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
  /** Where its ports come from: a free port on 127.0.0.1 each call (tests hand it a taken one). */
  findPort?: () => Promise<number>;
}

/**
 * An activity scheduled on the task queue of the worker that completes the workflow task goes
 * straight to that worker instead of through the server's matching (the worker reserves up to
 * 3 such slots per workflow task by default).
 */
const DEFAULT_DYNAMIC_CONFIG: Record<string, string> = { 'system.enableActivityEagerExecution': 'true' };

/**
 * Whether a gRPC server answers at the port (a health check over HTTP/2; any gRPC answer will do).
 * A bare TCP connect is not enough: when the port was taken meanwhile, whatever took it accepts
 * too. Not a Temporal client: one that cannot connect keeps its channel trying in the background.
 */
function answersGrpc(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    const done = (answered: boolean) => {
      clearTimeout(timer);
      session.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), 1_000);
    session.on('error', () => done(false));
    const request = session.request({ ':method': 'POST', ':path': '/grpc.health.v1.Health/Check', 'content-type': 'application/grpc', te: 'trailers' });
    request.on('response', (headers) => done(String(headers['content-type'] ?? '').startsWith('application/grpc')));
    request.on('error', () => done(false));
    request.end(Buffer.alloc(5)); // an empty HealthCheckRequest: no compression, length 0
  });
}

/**
 * Starts the dev server on free ports. A port found free can be taken by another process before the
 * server binds it (tests and busy machines): the server then exits at once saying so, and is
 * started again on other ports, up to three times.
 */
export async function startTemporalDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const binary = ensureTemporalBinary(options.log);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts(binary, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** The server exited because a port it was given was taken meanwhile. */
class PortTaken extends Error {}

async function startOnFreePorts(binary: string, options: DevServerOptions): Promise<DevServer> {
  const findPort = options.findPort ?? freePort;
  const port = await findPort();
  const uiPort = options.ui ? await findPort() : undefined;
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
  // Its errors at start-up go to stderr, its logs to stdout: both are kept for the error message.
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownProcessGroup ?? false });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // 'exit' can come before the last of its output has been read; 'close' comes after.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const deadline = Date.now() + 60_000;
  while (!(await answersGrpc(port))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))]);
      const how = child.signalCode ? `was killed by ${child.signalCode}` : `exited with code ${child.exitCode}`;
      const message = `temporal server start-dev ${how}: ${output.trim() || '(it printed nothing)'}`;
      throw /address already in use/.test(output) ? new PortTaken(message) : new Error(message);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal server start-dev did not listen on ${port} within 60 s: ${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Once it listens, its output is not read any more: it must not fill the pipe and block.
  child.stdout?.off('data', keep).resume();
  child.stderr?.off('data', keep).resume();
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
