// How the service's processes stop (issue 14): on SIGTERM or SIGINT a process stops taking new
// work, lets what is in flight finish within SHUTDOWN_GRACE_MS, closes what it opened, and exits
// 0. When the grace runs out, the steps are told to cut their work off (an abort signal), and get
// a few seconds more before the process exits regardless; it then exits 1, as it does at once on
// a second signal. Entry points register their steps as they open things (api/main.ts,
// workers/main.ts, scripts/start.ts); steps run last-registered first, so what was opened last
// (the HTTP server) stops first and what everything needs (the database) last.

export interface ShutdownStep {
  name: string;
  /** Finishes and closes; `deadline` aborts when the grace is over (cut the work off then). */
  run(deadline: AbortSignal): Promise<unknown>;
}

export interface GracefulShutdownOptions {
  /** How long work in flight may take after the signal. */
  graceMs: number;
  /** After the grace, how long the steps get to wind down before the process exits anyway. */
  forceAfterMs?: number;
  log?: (line: string) => void;
}

/** A signal repeated within this time is the same one. */
const REPEAT_MS = 1_000;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export class GracefulShutdown {
  private readonly steps: ShutdownStep[] = [];
  private readonly atExit: (() => void)[] = [];
  private readonly graceMs: number;
  private readonly forceAfterMs: number;
  private readonly log: (line: string) => void;
  private started: number | undefined;

  constructor(options: GracefulShutdownOptions) {
    this.graceMs = options.graceMs;
    this.forceAfterMs = options.forceAfterMs ?? 5_000;
    this.log = options.log ?? ((line) => console.log(line));
  }

  /** True once a signal (or stop()) has begun the shutdown. */
  get stopping(): boolean {
    return this.started !== undefined;
  }

  /** Adds a step; the steps run one after the other, the last added first. */
  onStop(name: string, run: ShutdownStep['run']): this {
    this.steps.unshift({ name, run });
    return this;
  }

  /** Runs even when the process exits without finishing (a second signal, the grace over): synchronous, e.g. killing a child process. */
  onExit(run: () => void): this {
    this.atExit.push(run);
    return this;
  }

  /** Stops on these signals; a second one exits at once. */
  listen(signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): this {
    for (const signal of signals) process.on(signal, () => void this.stop(signal));
    return this;
  }

  async stop(reason: string): Promise<void> {
    // One Ctrl-C can arrive twice: from the terminal and relayed by the tsx runner (when the
    // process did not acknowledge it within 30 ms). A repeat within a second counts once.
    if (this.started !== undefined && Date.now() - this.started < REPEAT_MS) return;
    if (this.started !== undefined) {
      this.log(`${reason} again: stopping at once, without waiting for the work in flight.`);
      this.exit(1);
      return;
    }
    this.started = Date.now();
    this.log(`${reason}: stopping. Work in flight has ${seconds(this.graceMs)} to finish (SHUTDOWN_GRACE_MS); send the signal again to stop at once.`);
    const deadline = new AbortController();
    let force: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      this.log(`The ${seconds(this.graceMs)} of grace are over: cutting off the work still in flight.`);
      deadline.abort(new Error('the shutdown grace period is over'));
      force = setTimeout(() => {
        this.log(`Still not stopped ${seconds(this.forceAfterMs)} later: exiting.`);
        this.exit(1);
      }, this.forceAfterMs);
    }, this.graceMs);
    let failed = false;
    const took: string[] = [];
    for (const step of this.steps) {
      const begun = Date.now();
      try {
        await step.run(deadline.signal);
      } catch (error) {
        failed = true;
        console.error(`Stopping ${step.name} failed:`, error);
      }
      took.push(`${step.name} ${Date.now() - begun} ms`);
    }
    clearTimeout(grace);
    clearTimeout(force);
    const cut = deadline.signal.aborted;
    const total = `Stopped in ${seconds(Date.now() - this.started)} (${took.join(', ')})`;
    this.log(cut || failed ? `${total}, with work cut off.` : `${total}.`);
    this.exit(cut || failed ? 1 : 0);
  }

  /**
   * For a process that fails before it serves (a port in use, a database that refuses): exits
   * with `code` at once, running the onExit hooks first, so a child it started (the Temporal dev
   * server) does not outlive it.
   */
  exitNow(code: number): void {
    this.exit(code);
  }

  private exit(code: number): void {
    for (const run of this.atExit) {
      try {
        run();
      } catch {
        // exiting anyway
      }
    }
    process.exit(code);
  }
}
