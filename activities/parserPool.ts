// Parsers run in a pool of worker threads (piscina): a large or hostile file neither blocks the
// worker's event loop (heartbeats, timers, other activities) nor takes the process down, each
// thread's heap is capped, and cancellation (the workflow's processing limit) ends the thread
// at once. Threads stay warm between files, so a small file costs no thread start-up.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { AppError } from '../lib/errors.js';
import type { ParserTask, ParserThreadResult } from './parserThread.js';

/**
 * Heap for one parse. The readers stream, and large geometries are kept in typed arrays, so a
 * 15 MB file of any format needs a few tens of MB; a file that needs more than this is refused
 * (file_too_complex) instead of taking the machine's memory.
 */
const MAX_HEAP_MB = 512;
/**
 * A small young generation: parsers allocate many short-lived strings and V8 otherwise grows
 * the nursery to tens of MB per thread (measured: peak RSS above idle 75 → 49 MB for a 15 MB
 * KML at about the same CPU).
 */
const YOUNG_GENERATION_MB = 16;

export type ParsedFile = Extract<ParserThreadResult, { ok: true }>;

export class ParserPool {
  private pool: Piscina | undefined;

  private get threads(): Piscina {
    this.pool ??= new Piscina({
      filename: new URL('./parserThread.bootstrap.mjs', import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(1, availableParallelism()),
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    return this.pool;
  }

  /** Starts the first thread now, so the first import does not wait for it. */
  warm(): void {
    void this.threads;
  }

  async parse(task: ParserTask, signal: AbortSignal): Promise<ParsedFile> {
    let result: ParserThreadResult;
    try {
      // A port for the rows (task.rows) moves into the thread.
      result = await this.threads.run(task, { signal, ...(task.rows ? { transferList: [task.rows.port] } : {}) });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new AppError('file_too_complex', 'The file needs more memory to process than one import may use.');
      }
      throw error;
    }
    if (!result.ok) throw new AppError(result.code, result.message);
    return result;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
