// The web map and its editor in Chromium (issue 13, "Measured when resolved"), against a fresh
// embedded service on PostgreSQL (bench/service.ts), driving Debian's Chromium with the tests'
// launch (test/e2e/chromium.ts: software WebGL), logged in as the maps' owner, 1280×800:
// - navigation → the map drawn with all its features (the page's `map-drawn` mark: the GeoJSON
//   source loaded and the map idle), for maps of 1,000, 10,000 and 100,000 points (Maki icons,
//   titles, a quarter coloured: bench/generate/mapContent.ts), median of 3 after a warm-up page;
// - requestAnimationFrame deltas while the 100,000-point map is panned with mouse drags (median
//   and p95), and the 1,000-point map's beside them: what software WebGL gives any map here;
// - saving one moved point of the 100,000-point map through the editor (Edit map, Select, the
//   point chosen in the item list, dragged, Done, Save until "Saved."): the POST's own time and
//   click → "Saved.", median of 5.
// Targets: drawn within 3 s, frames under 50 ms, the save under 300 ms; printed as ratios.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/e2e/chromium.js';
import { featureCollection, mapFeatures } from './generate/mapContent.js';
import { dragAndSave, openDrawnMap, panFrameTimes, type DrawnTiming } from './editorPage.js';
import { startBenchService, type BenchService } from './service.js';
import { summarize } from './stats.js';

const SIZES = [1_000, 10_000, 100_000];
const RUNS = 3;
const SAVES = 5;
const PAN_SECONDS = 4;
const TARGET = { drawn: 3000, frame: 50, save: 300 };
const ms = (value: number) => Math.round(value);
const ratio = (value: number, target: number) => Math.round((value / target) * 100) / 100;

export interface EditorBench {
  drawn: Record<string, unknown>[];
  pan: Record<string, unknown>[];
  save: Record<string, unknown>;
}

/** The service's CPU time so far (user + system, all its threads), in clock ticks. */
function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Waits until the service has been nearly idle for a second (an upload's static image rendered). */
async function serviceQuiet(pid: number): Promise<void> {
  for (let last = cpuTicks(pid); ; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuTicks(pid);
    if (now - last < 10) return; // under 10% of one core
    last = now;
  }
}

async function uploadPoints(service: BenchService, count: number): Promise<string> {
  const features = mapFeatures({ points: count, lines: 0, linePoints: 0, polygons: 0, polygonVertices: 0, decimals: 5, pointColors: 0.25 });
  const answer = await service.send('map/upload', { file_type: 'geojson', visibility: 'public', title: `${count} points` }, featureCollection(features));
  return answer.url as string;
}

async function logIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username or e-mail address').fill('bench');
  await page.getByLabel('Password').fill('benchmark');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Saves of one point of the map, moved back and forth: chosen in the item list (which selects it and brings it into view), dragged, saved. */
async function timeSaves(page: Page, url: string) {
  await openDrawnMap(page, url);
  await page.getByRole('button', { name: 'Edit map' }).click();
  await page.getByRole('button', { name: 'Select and edit items' }).click();
  const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
  // The adapter's focus puts a point a quarter of the map's height below its centre.
  const at = { x: box.x + box.width / 2, y: box.y + box.height * 0.75 };
  const samples = [];
  for (let i = 0; i < SAVES; i += 1) {
    await page.locator('.item-list [data-open-item]').first().click();
    await page.getByRole('heading', { name: 'Item', exact: true }).waitFor();
    await page.waitForTimeout(1500); // the move to the point ends
    samples.push(await dragAndSave(page, at, i % 2 === 0 ? 60 : -60, i % 2 === 0 ? -40 : 40));
  }
  return samples;
}

export async function benchEditor(): Promise<EditorBench> {
  const service = await startBenchService('pg');
  const browser = await launchChromium();
  try {
    const urls = new Map<number, string>();
    for (const size of SIZES) urls.set(size, await uploadPoints(service, size));
    await serviceQuiet(service.pid);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    // At the service's public address (the maps' links): the session cookie is that host's, and
    // the log-in form's origin check wants it.
    await logIn(page, new URL(urls.get(SIZES[0]!)!).origin);
    await openDrawnMap(page, urls.get(SIZES[0]!)!); // warm-up: the front end's bundle is built at its first request

    const drawn: Record<string, unknown>[] = [];
    for (const size of SIZES) {
      const runs: DrawnTiming[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await openDrawnMap(page, urls.get(size)!));
      const median = (pick: (run: DrawnTiming) => number) => summarize(runs.map(pick)).median;
      drawn.push({
        points: size,
        'drawn ms': runs.map((run) => ms(run.drawn)).join(', '),
        'median / 3 s': ratio(median((run) => run.drawn), TARGET.drawn),
        'map.geojson asked at ms': ms(median((run) => run.dataStart)),
        'received at ms': ms(median((run) => run.dataEnd)),
        'map.geojson MB': Math.round((runs[0]!.dataDecodedBytes / 1024 / 1024) * 100) / 100,
      });
    }

    const pan: Record<string, unknown>[] = [];
    for (const size of [SIZES.at(-1)!, SIZES[0]!]) {
      await openDrawnMap(page, urls.get(size)!);
      const frames = await panFrameTimes(page, PAN_SECONDS);
      const sorted = [...frames].sort((a, b) => a - b);
      const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
      const frameMedian = summarize(frames).median;
      pan.push({
        points: size,
        frames: frames.length,
        'median ms': Math.round(frameMedian * 10) / 10,
        'p95 ms': Math.round(p95 * 10) / 10,
        'longest ms': ms(sorted.at(-1)!),
        'median / 50 ms': ratio(frameMedian, TARGET.frame),
        'p95 / 50 ms': ratio(p95, TARGET.frame),
      });
    }

    const saves = await timeSaves(page, urls.get(SIZES.at(-1)!)!);
    const post = summarize(saves.map((s) => s.post)).median;
    const clickToSaved = summarize(saves.map((s) => s.clickToSaved)).median;
    const save = {
      'POST ms': saves.map((s) => ms(s.post)).join(', '),
      'click → Saved. ms': saves.map((s) => ms(s.clickToSaved)).join(', '),
      'POST median / 300 ms': ratio(post, TARGET.save),
      'click → Saved. median / 300 ms': ratio(clickToSaved, TARGET.save),
    };
    await context.close();
    return { drawn, pan, save };
  } finally {
    await browser.close();
    await service.stop();
  }
}
