// Reading a large map is the heaviest thing a client can ask of the API (a 64 MB answer holds a
// database connection while it streams). A few may run at once in each API process; the rest
// wait their turn, and a request that waits too long is answered server_busy, so other
// requests keep their connections and their speed.
import { AppError } from '../lib/errors.js';

/** Maps above this many bytes of GeoJSON count as large reads. */
export const LARGE_READ_BYTES = 1024 * 1024;

export class ReadSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    slots: number,
    private readonly maxWaitMs: number,
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
        reject(new AppError('server_busy', 'Many large maps are being read right now; please try again in a few seconds.'));
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
