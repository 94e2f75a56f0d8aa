// Turns for the heaviest things a client can ask of an API process: reading a large map (a
// 64 MB answer holds a database connection while it streams) and sending a large JSON body (held
// in memory until its request ends). A few may run at once; the rest wait their turn, and a
// request that waits too long is answered server_busy, so other requests keep their memory,
// their connections and their speed.
import { AppError } from '../lib/errors.js';

export class Turns {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    slots: number,
    private readonly maxWaitMs: number,
    /** What a request that waited too long is told. */
    private readonly busy: string,
    /** A reader that takes no more of its answer for this long is cut off (its turn held a slot and a connection). */
    readonly stallMs = 30_000,
  ) {
    this.free = slots;
  }

  /** Resolves with a release function once a slot is free; server_busy after maxWaitMs. */
  async take(): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(new AppError('server_busy', this.busy));
      }, this.maxWaitMs);
      this.waiting.push(turn);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
