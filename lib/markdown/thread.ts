// The description renderer's thread (./index.ts): says it is ready once marked is loaded, then
// answers each { id, source } with { id, html } (or { id, error }), one at a time.
import { parentPort } from 'node:worker_threads';
import { markdownHtml } from './render.js';

export interface RenderTask {
  id: number;
  source: string;
}

export type RenderAnswer = { ready: true } | { id: number; html: string } | { id: number; error: string };

const port = parentPort!;
port.on('message', ({ id, source }: RenderTask) => {
  try {
    port.postMessage({ id, html: markdownHtml(source) } satisfies RenderAnswer);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies RenderAnswer);
  }
});
port.postMessage({ ready: true } satisfies RenderAnswer);
