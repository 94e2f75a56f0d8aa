// Static images are drawn in worker threads (piscina), as files are parsed: a map of 38,000
// features takes the renderer hundreds of milliseconds of CPU (seconds before issue 24's
// cheaper drawing), which on the event loop stalled every request of the one-process service.
// The pool has as many threads as the render worker runs renders at once (RENDER_CONCURRENCY,
// 1 by default); each thread lowers its own scheduling priority (renderThread.ts), so on a busy
// machine requests get the CPU first. The activity keeps the I/O (the database, the blob store,
// a commercial basemap's tiles) and feeds the thread through a MessageChannel.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Basemap } from '../lib/basemaps.js';
import { AbandonedError, type RenderTask, type RenderThreadResult } from './renderThread.js';

/** A map of large features takes tens of MB to draw (a 14 MB MultiPolygon about 100 MB). */
const MAX_HEAP_MB = 512;
const YOUNG_GENERATION_MB = 16;

export class RenderPool {
  private pool: Piscina | undefined;

  constructor(private readonly threads = 1) {}

  private get piscina(): Piscina {
    // Made on the first render and kept: a thread holds Natural Earth and the fonts once loaded.
    this.pool ??= new Piscina({
      filename: new URL('./renderThread.bootstrap.mjs', import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(1, this.threads),
      // Renders beyond the threads wait in piscina's queue (the worker's concurrency matches, so rarely).
      idleTimeout: 10 * 60_000,
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    return this.pool;
  }

  /** Starts the thread now (it loads the renderer's modules), not on the first render. */
  warm(): void {
    void this.piscina;
  }

  /** Runs one render: `feed` talks to the thread through its end of the channel while the thread draws. */
  async render(basemap: Basemap, feed: (port: MessagePort) => Promise<void>, signal?: AbortSignal): Promise<RenderThreadResult> {
    const { port1, port2 } = new MessageChannel();
    const task: RenderTask = { port: port2, basemap };
    const drawing = this.piscina.run(task, { transferList: [port2], ...(signal ? { signal } : {}) }) as Promise<RenderThreadResult>;
    // Either side failing closes the channel, which ends the other's wait (AbandonedError).
    const fed = feed(port1).catch((error: unknown) => {
      port1.close();
      throw error;
    });
    const [drawn, feeding] = await Promise.allSettled([drawing, fed]);
    port1.close();
    if (feeding.status === 'rejected' && !(feeding.reason instanceof AbandonedError)) throw feeding.reason;
    if (drawn.status === 'rejected') throw drawn.reason;
    return drawn.value;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
