// A map's description on its page (issue 24, defect 1): the worst descriptions the API accepts
// (100,000 characters: test/support/worstDescriptions.ts, plus 100,000 characters of ordinary
// prose and a table), each saved with map/update on the embedded service (PostgreSQL) and its
// map's page then requested again and again by one client while 20 other clients request
// /healthz and a small map's page in a closed loop: the time to save, the worst map's page,
// and the others' p50/p99/max (target: p99 under 100 ms). For reference, what one view cost
// before on the event loop (marked unbounded, as the page did on each view; measured in a
// thread, given up after 30 s), and the bounded renderer's own time (lib/markdown/render.ts).
import { Worker } from 'node:worker_threads';
import { markdownHtml } from '../lib/markdown/render.js';
import { callApi } from '../test/support/apiRequests.js';
import { WORST_DESCRIPTIONS } from '../test/support/worstDescriptions.js';
import { startBenchService } from './service.js';
import { percentile } from './stats.js';

const OTHER_CLIENTS = 20;
const PAGE_VIEWS = 10;
const REFERENCE_GIVE_UP_MS = 30_000;

const CASES: Record<string, string> = {
  ...WORST_DESCRIPTIONS,
  'prose (100,000 characters)': 'Some *words* and a [link](https://example.com) here.\n\n'.repeat(1_800).slice(0, 100_000),
  'table (16,000 rows)': `|a|b|\n|-|-|\n${'|x|y|\n'.repeat(16_000)}`.slice(0, 100_000),
};

const round = (value: number) => Math.round(value * 10) / 10;

/** marked as the page ran it before, once, in a thread (so that a 27-second case can be given up). */
function unboundedMarked(source: string): Promise<number | string> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { marked } = require('marked');
    const started = performance.now();
    try { marked.parse(workerData, { async: false, gfm: true, breaks: true }); parentPort.postMessage(performance.now() - started); }
    catch (error) { parentPort.postMessage(String(error).slice(0, 40)); }`;
  return new Promise((resolve) => {
    const worker = new Worker(code, { eval: true, workerData: source });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(`> ${REFERENCE_GIVE_UP_MS} (given up)`);
    }, REFERENCE_GIVE_UP_MS);
    worker.once('message', (value: number | string) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(typeof value === 'number' ? round(value) : value);
    });
  });
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

export async function benchDescription() {
  const service = await startBenchService('pg');
  const rows: Record<string, unknown>[] = [];
  try {
    const small = await service.send('map/upload', { file_type: 'empty', visibility: 'public', title: 'Small', description: 'A *small* map.' });
    const big = await service.send('map/upload', { file_type: 'empty', visibility: 'public', title: 'Worst' });
    const smallPage = String(small.url);
    const bigPage = String(big.url);
    for (const [name, description] of Object.entries(CASES)) {
      const saveStarted = performance.now();
      const saved = await callApi(service.base, 'map/update', service.key, { map_id: big.id, description });
      const saveMs = performance.now() - saveStarted;
      if (saved.error) throw new Error(`${name}: ${saved.error}`);
      const others: number[] = [];
      const pageTimes: number[] = [];
      let done = false;
      const clients = Array.from({ length: OTHER_CLIENTS }, async (_, i) => {
        while (!done) others.push(await timed(i % 2 === 0 ? `${service.base}/healthz` : smallPage));
      });
      for (let view = 0; view < PAGE_VIEWS; view++) pageTimes.push(await timed(bigPage));
      done = true;
      await Promise.all(clients);
      const boundedStarted = performance.now();
      markdownHtml(description);
      rows.push({
        description: name,
        save_ms: round(saveMs),
        page_p50_ms: round(percentile(pageTimes, 0.5)),
        page_max_ms: round(Math.max(...pageTimes)),
        others_requests: others.length,
        others_p50_ms: round(percentile(others, 0.5)),
        others_p99_ms: round(percentile(others, 0.99)),
        others_max_ms: round(Math.max(...others)),
        bounded_render_ms: round(performance.now() - boundedStarted),
        before_per_view_ms: await unboundedMarked(description),
      });
    }
  } finally {
    await service.stop();
  }
  return rows;
}
