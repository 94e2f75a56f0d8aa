// A map's description as HTML, rendered off the event loop within a time budget: one thread
// (./thread.ts) renders descriptions one at a time; a render that overruns RENDER_BUDGET_MS is
// ended by terminating the thread, and the description is shown as escaped plain text in
// paragraphs instead (./plainText.ts) — as it is when the renderer fails or runs out of memory.
// The budget starts when the thread takes the text (a render waiting behind another is not
// charged for it). Callers render when a description is saved, and keep the HTML (maps.description_html).
import { Worker } from 'node:worker_threads';
import { errorFields, log } from '../observability/logger.js';
import { plainTextHtml } from './plainText.js';
import type { RenderAnswer, RenderTask } from './thread.js';

/**
 * Every description the API accepts rendered in 0.4 s or less on a busy 2-core machine once
 * bounded (./bounds.ts; bench/README.md, `npm run bench -- description`): several times that
 * is a fault or a starved machine, not a description.
 */
export const RENDER_BUDGET_MS = 3_000;

/** marked and the text: a few tens of MB; the limit keeps a fault from taking the process. */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

export interface RenderedDescription {
  html: string;
  /** The Markdown could not be rendered in time (or at all): `html` is the plain text. */
  fallback: boolean;
}

interface Waiting {
  id: number;
  source: string;
  resolve: (rendered: RenderedDescription) => void;
}

class DescriptionRenderer {
  private worker: Worker | undefined;
  private ready = false;
  private readonly queue: Waiting[] = [];
  private current: { task: Waiting; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;

  constructor(private readonly budgetMs: number) {}

  render(source: string): Promise<RenderedDescription> {
    if (!source.trim()) return Promise.resolve({ html: '', fallback: false });
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, source, resolve });
      this.pump();
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./thread.bootstrap.mjs', import.meta.url), { resourceLimits: THREAD_LIMITS });
    // A process that is stopping does not wait for the renderer.
    worker.unref();
    worker.on('message', (answer: RenderAnswer) => {
      if ('ready' in answer) {
        this.ready = true;
        return this.pump();
      }
      if (!this.current || this.current.task.id !== answer.id) return;
      if ('error' in answer) log.warn({ error: answer.error }, 'A description could not be rendered; it is shown as plain text');
      this.finish('html' in answer ? { html: answer.html, fallback: false } : { html: plainTextHtml(this.current.task.source), fallback: true });
    });
    worker.on('error', (error) => log.warn({ err: errorFields(error) }, 'The description renderer failed; it starts again'));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      const wasReady = this.ready;
      this.worker = undefined;
      this.ready = false;
      if (this.current) return this.finish({ html: plainTextHtml(this.current.task.source), fallback: true });
      // A thread that could not even start would fail again: what waits gets its plain text.
      if (!wasReady) for (const task of this.queue.splice(0)) task.resolve({ html: plainTextHtml(task.source), fallback: true });
    });
    return worker;
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    this.worker ??= this.start();
    if (!this.ready) return;
    const task = this.queue.shift()!;
    const worker = this.worker;
    const timer = setTimeout(() => {
      log.warn({ chars: task.source.length, budgetMs: this.budgetMs }, 'A description took longer than its budget to render; it is shown as plain text');
      // The exit handler sees another worker (or none) and leaves the queue to finish() below.
      this.worker = undefined;
      this.ready = false;
      void worker.terminate();
      this.finish({ html: plainTextHtml(task.source), fallback: true });
    }, this.budgetMs);
    this.current = { task, timer };
    worker.postMessage({ id: task.id, source: task.source } satisfies RenderTask);
  }

  private finish(rendered: RenderedDescription): void {
    const current = this.current!;
    clearTimeout(current.timer);
    this.current = undefined;
    current.task.resolve(rendered);
    this.pump();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    await worker?.terminate();
  }
}

let renderer: DescriptionRenderer | undefined;

/** The description's Markdown as sanitised HTML, rendered in the renderer's thread within its budget. */
export function renderDescription(source: string): Promise<RenderedDescription> {
  renderer ??= new DescriptionRenderer(RENDER_BUDGET_MS);
  return renderer.render(source);
}

/** A renderer of its own with another budget (tests and the bench make one overrun). */
export function descriptionRenderer(budgetMs: number): { render: (source: string) => Promise<RenderedDescription>; close: () => Promise<void> } {
  const made = new DescriptionRenderer(budgetMs);
  return { render: (source) => made.render(source), close: () => made.close() };
}
