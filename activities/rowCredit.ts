// Back-pressure on the rows a parser thread streams (rowsFromThread.ts): the thread may send at
// most ROW_CREDIT writes (each up to 64 K characters of row lines) that the reader has not yet
// taken. The parser writes rows synchronously (lib/formats/documentFile.ts), so the thread waits
// with Atomics.wait on a SharedArrayBuffer, which keeps the writing code as it is; messages of
// credit would need an event loop the parse does not give back. The reader adds to the count as
// the COPY takes each chunk; `release` ends all waiting for good (a reader that stops reading,
// and the parse's end however it ends), so a thread never waits for a reader that is gone.

/** Writes a thread may have sent that the reader has not taken (16 × 64 K characters). */
export const ROW_CREDIT = 16;

const TAKEN = 0;
const RELEASED = 1;
/** 1 while the thread waits for credit (for tests and measures; nothing waits on it). */
const WAITING = 2;

export function newRowCredit(): SharedArrayBuffer {
  return new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
}

/** The thread's side. */
export class RowCredit {
  private readonly cells: Int32Array;
  private sent = 0;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly limit = ROW_CREDIT,
  ) {
    this.cells = new Int32Array(buffer);
  }

  /** Before a write is sent: waits while `limit` sent writes are not yet taken (unless released). */
  take(): void {
    for (;;) {
      const taken = Atomics.load(this.cells, TAKEN);
      if (Atomics.load(this.cells, RELEASED) === 1 || this.sent - taken < this.limit) break;
      Atomics.store(this.cells, WAITING, 1);
      // Woken when the count changes; `release` changes it too, so no release is missed.
      Atomics.wait(this.cells, TAKEN, taken);
      Atomics.store(this.cells, WAITING, 0);
    }
    this.sent++;
  }
}

/** The reader's side. */
export class RowCreditGiver {
  private readonly cells: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /** The reader took one write. */
  took(): void {
    Atomics.add(this.cells, TAKEN, 1);
    Atomics.notify(this.cells, TAKEN);
  }

  /** The thread no longer waits for the reader, now or later. */
  release(): void {
    Atomics.store(this.cells, RELEASED, 1);
    Atomics.add(this.cells, TAKEN, 1);
    Atomics.notify(this.cells, TAKEN);
  }

  /** Whether the thread waits for credit now. */
  get threadWaits(): boolean {
    return Atomics.load(this.cells, WAITING) === 1;
  }
}
