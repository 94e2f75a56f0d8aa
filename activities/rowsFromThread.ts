// The row lines a parser thread sends while it parses (parserThread.ts's `rows`), as the chunks
// a COPY reads: the thread's end of a channel goes with the task; this end yields each write's
// bytes as they come, ends at the thread's last message, and fails when the parse fails (so the
// COPY, and the transaction it is in, never takes a partial file). The thread sends no more than
// ROW_CREDIT chunks ahead of what the COPY has taken (rowCredit.ts): a slow write holds the parse
// back instead of gathering the file's rows here.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { newRowCredit, RowCreditGiver } from './rowCredit.js';
import { TimeLimitReached } from '../db/errors.js';
import type { ParserTask } from './parserThread.js';
import type { FaultHooks } from './deps.js';
import type { ParsedFile, ParserPool } from './parserPool.js';

export class RowsFromThread {
  /** The end that goes to the parser thread. */
  readonly port: MessagePort;
  /** The thread's credit (ParserTask's rows.credit). */
  readonly credit: SharedArrayBuffer;
  private readonly giver: RowCreditGiver;
  private readonly own: MessagePort;
  private chunks: Buffer[] = [];
  private ended = false;
  /** The lines are not read (any more): chunks are dropped. */
  private dropping = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.own = port1;
    this.port = port2;
    this.credit = newRowCredit();
    this.giver = new RowCreditGiver(this.credit);
    this.own.on('message', (message: Uint8Array | null) => {
      if (message === null) this.ended = true;
      else if (!this.dropping) this.chunks.push(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
      this.wake?.();
    });
  }

  /** Chunks received and not yet taken by the reader (at most ROW_CREDIT). */
  get buffered(): number {
    return this.chunks.length;
  }

  /** Whether the thread waits for the reader now. */
  get threadWaits(): boolean {
    return this.giver.threadWaits;
  }

  /** The parse failed (or was cancelled): the lines end with this error. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.giver.release();
    this.wake?.();
  }

  /**
   * The lines will not be read (any more): the thread goes on to its end without waiting, and
   * what it sends is dropped.
   */
  skip(): void {
    this.dropping = true;
    this.chunks = [];
    this.giver.release();
  }

  /** Stops listening (once the parse has ended, however). */
  close(): void {
    this.skip();
    this.own.close();
  }

  async *lines(): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        if (this.failure) throw this.failure.error;
        const chunk = this.chunks.shift();
        if (chunk) {
          yield chunk;
          this.giver.took(); // the COPY asks for the next one: this one is taken
          continue;
        }
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      // However the reading ended (a COPY that failed stops early), the thread waits no more.
      this.skip();
    }
  }
}

/** A parse in a parser thread whose rows come out while it runs. */
export interface StreamingParse {
  /** The row lines, as RowsFromThread.lines. */
  lines: AsyncGenerator<Buffer>;
  parsing: Promise<ParsedFile>;
  /**
   * The write of the rows failed with `error`: ends the parse and answers what to throw — the
   * parse's own failure when it failed first (it says more than the COPY it broke), else `error`.
   */
  failWith(error: unknown): Promise<unknown>;
  /**
   * The lines will not be read (a retry whose map is already written): the parse goes on without
   * waiting for a reader, its rows dropped. Call it before awaiting `parsing` without reading.
   */
  skipLines(): void;
  /** Ends the parse if it still runs, waits for the thread to be done (with the files), and stops listening. */
  end(): Promise<void>;
}

/**
 * Starts a parse whose rows come out as they are written (numbered from `firstId` when given);
 * it stops when any of `signals` aborts, and with TimeLimitReached when `limit` does.
 */
export function startStreamingParse(
  parsers: ParserPool,
  task: Omit<ParserTask, 'rows'>,
  { firstId, signals, limit }: { firstId?: number; signals: AbortSignal[]; limit?: AbortSignal },
): StreamingParse {
  const rows = new RowsFromThread();
  const stop = new AbortController();
  const all = AbortSignal.any([...signals, stop.signal, ...(limit ? [limit] : [])]);
  // The parse failed on its own (not because the write stopped it).
  let ownFailure: { error: unknown } | undefined;
  const parsing = parsers.parse({ ...task, rows: { port: rows.port, credit: rows.credit, ...(firstId === undefined ? {} : { firstId }) } }, all).catch((error: unknown) => {
    const failure = limit?.aborted ? new TimeLimitReached() : error;
    if (!stop.signal.aborted) ownFailure = { error: failure };
    rows.fail(failure);
    throw failure;
  });
  parsing.catch(() => {}); // awaited by the caller; a failure also ends the lines
  const end = async () => {
    rows.skip(); // a thread waiting for credit goes on to see the abort
    stop.abort();
    await parsing.catch(() => {});
    rows.close();
  };
  return {
    lines: rows.lines(),
    parsing,
    async failWith(error) {
      const failedFirst = ownFailure;
      await end();
      return failedFirst ? failedFirst.error : error;
    },
    skipLines: () => rows.skip(),
    end,
  };
}

/**
 * The tests' hook before a parse (deps.ts `beforeParse`), stopped as the parse itself is: by the
 * activity's cancellation, or by the processing limit (then TimeLimitReached). These activities
 * keep the limit themselves; no workflow timer cancels them at it.
 */
export async function faultBeforeParse(faults: FaultHooks | undefined, cancellation: AbortSignal, limit: AbortSignal | undefined): Promise<void> {
  if (!faults?.beforeParse) return;
  try {
    await faults.beforeParse(limit ? AbortSignal.any([cancellation, limit]) : cancellation);
  } catch (error) {
    throw limit?.aborted ? new TimeLimitReached() : error;
  }
}
