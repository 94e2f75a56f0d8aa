// Child processes of a test (API and worker processes, a Temporal dev server): started with their
// output kept (the last lines, for failure messages), waited on, and killed. Every child started
// here is killed when the test process exits, and by `killAllChildren()` (call it in afterAll):
// a failing test never leaves a process behind.
import { spawn, type ChildProcess } from 'node:child_process';

const KEPT_LINES = 300;

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Resolves when the process has exited (however it ended). */
  exited: Promise<ExitStatus>;
  /** Null while it runs. */
  exitStatus(): ExitStatus | null;
  /** The last lines it wrote (stdout and stderr, in order). */
  output(): string;
  /** Resolves once a line matching `pattern` was written (also one written before the call). */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** kill -9; resolves once it has exited. */
  kill(): Promise<ExitStatus>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<ExitStatus>;
}

const running = new Set<Child>();
/** Synchronous last-resort clean-ups (processes that are not our children, such as a postmaster). */
const exitCleanups = new Set<() => void>();

process.on('exit', () => {
  for (const child of running) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const cleanup of exitCleanups) {
    try {
      cleanup();
    } catch {
      // best effort
    }
  }
});

/** Runs `cleanup` synchronously if the test process exits before `release()` is called. */
export function onTestProcessExit(cleanup: () => void): { release(): void } {
  exitCleanups.add(cleanup);
  return { release: () => exitCleanups.delete(cleanup) };
}

export interface ChildOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export function startChild(name: string, command: string, args: string[], options: ChildOptions): Child {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  const lines: string[] = [];
  const watchers = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  let status: ExitStatus | null = null;
  const take = (stream: NodeJS.ReadableStream | null) => {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (lines.length > KEPT_LINES) lines.shift();
        for (const watcher of watchers) {
          if (watcher.pattern.test(line)) {
            watchers.delete(watcher);
            watcher.resolve(line);
          }
        }
      }
    });
  };
  take(child.stdout);
  take(child.stderr);
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      status = { code, signal };
      running.delete(handle);
      resolve(status);
    });
  });
  const describeExit = (s: ExitStatus) => (s.signal ? `killed by ${s.signal}` : `exited with code ${s.code}`);

  const handle: Child = {
    name,
    pid: child.pid,
    process: child,
    exited,
    exitStatus: () => status,
    output: () => lines.join('\n'),
    waitForOutput(pattern, timeoutMs) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const watcher = { pattern, resolve: (line: string) => (clearTimeout(timer), resolve(line)) };
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`${name} wrote no line matching ${pattern} within ${timeoutMs / 1000} s. Its last lines:\n${handle.output()}`));
        }, timeoutMs);
        watchers.add(watcher);
        void exited.then((s) => {
          if (!watchers.has(watcher)) return;
          watchers.delete(watcher);
          clearTimeout(timer);
          reject(new Error(`${name} ${describeExit(s)} before writing a line matching ${pattern}. Its last lines:\n${handle.output()}`));
        });
      });
    },
    async kill() {
      if (status) return status;
      child.kill('SIGKILL');
      return exited;
    },
    async stop(graceMs = 10_000) {
      if (status) return status;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(killer);
      return result;
    },
  };
  running.add(handle);
  return handle;
}

/** Kills every child still running (kill -9) and waits for them to exit. */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.kill()));
}

/** The last lines of every child still known, for a failure message. */
export function childrenOutput(children: Iterable<Child>): string {
  return [...children].map((child) => `----- ${child.name} (pid ${child.pid}) -----\n${child.output()}`).join('\n');
}
