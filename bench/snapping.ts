// The cost of snapping per pointer move in the map editor (web/app/mapSnapping.ts), on the
// editor benchmark's 100,000-point map (bench/editor.ts) and on the large mixed map of 100,000
// features (96,000 points, 3,000 lines, 1,000 areas: bench/generate/mapContent.ts), in Debian's
// Chromium with the tests' launch (software WebGL), 1280×800, logged in as the owner.
// Per move: the time the page spends handling one mouse move — from the pointermove event's
// first listener (the window's, capturing) to the mousemove event's last (the window's,
// bubbling), so MapLibre's handlers and terra-draw's (with the snapping) are inside — over 300
// moves in a zigzag across the map, with the Select tool (no snapping: what a move costs the
// page anyway) and with the Line tool after a first click (every move snaps), at the map's
// opening view (all of western Europe: the points are dots) and at zoom 12 over Paris (the
// points are circles). `npx tsx bench/snapping.ts` (PostgreSQL on 127.0.0.1:5432).
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/e2e/chromium.js';
import { openDrawnMap } from './editorPage.js';
import { featureCollection, LARGE_CONTENT, mapFeatures, type Feature } from './generate/mapContent.js';
import { startBenchService } from './service.js';

const MOVES = 300;
const PARIS: [number, number] = [2.35, 48.86];
const round = (value: number) => Math.round(value * 1000) / 1000;

async function logIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username or e-mail address').fill('bench');
  await page.getByLabel('Password').fill('benchmark');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Moves the mouse MOVES times in a zigzag over the middle of the map; the page's handling time of each move, ms. */
async function moveCosts(page: Page): Promise<number[]> {
  const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
  await page.evaluate(`{
    const costs = [];
    let started = 0;
    window.benchMoves = costs;
    window.addEventListener('pointermove', () => { started = performance.now(); }, true);
    window.addEventListener('mousemove', () => { if (started) costs.push(performance.now() - started); started = 0; });
  }`);
  for (let i = 0; i < MOVES; i += 1) {
    const x = box.x + box.width * (0.2 + 0.6 * ((i % 50) / 49));
    const y = box.y + box.height * (0.3 + 0.4 * (Math.floor(i / 50) / 5)) + (i % 2) * 7;
    await page.mouse.move(x, y);
  }
  return page.evaluate(() => (window as unknown as { benchMoves: number[] }).benchMoves);
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { moves: samples.length, 'median ms': at(0.5), 'p95 ms': at(0.95), 'max ms': round(sorted.at(-1)!) };
}

/** The title of the listed point nearest to a place (chosen in the item list, it brings the map there at zoom 12). */
function nearestTitle(features: Feature[], [lon, lat]: [number, number]): string {
  let best: Feature | undefined;
  let distance = Infinity;
  for (const feature of features.slice(0, 2_000)) {
    // the page lists a map's first 2,000 items (api/web/mapView.ts)
    if (feature.geometry.type !== 'Point') continue;
    const [x, y] = feature.geometry.coordinates;
    const d = (x - lon) ** 2 + (y - lat) ** 2;
    if (d < distance) [best, distance] = [feature, d];
  }
  return String(best!.properties.title);
}

async function measure(page: Page, url: string, features: Feature[], name: string) {
  const rows: Record<string, unknown>[] = [];
  for (const view of ['opening view (dots)', 'zoom 12 over Paris (circles)']) {
    for (const tool of ['Select', 'Line'] as const) {
      await openDrawnMap(page, url);
      await page.getByRole('button', { name: 'Edit map' }).click();
      if (view.startsWith('zoom')) {
        await page.getByRole('button', { name: nearestTitle(features, PARIS), exact: true }).click();
        await page.waitForTimeout(1500); // the move to the point ends
        await page.getByRole('button', { name: 'Done' }).click();
        await page.waitForTimeout(500);
      }
      if (tool === 'Line') {
        await page.getByRole('button', { name: 'Draw a line: click for each point, click the last one again to finish' }).click();
        const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
        await page.mouse.click(box.x + box.width * 0.1, box.y + box.height * 0.9);
      }
      rows.push({ map: name, view, tool: tool === 'Line' ? 'Line (snapping)' : 'Select (no snapping)', ...stats(await moveCosts(page)) });
    }
  }
  return rows;
}

const service = await startBenchService('pg');
const browser = await launchChromium();
try {
  const points = mapFeatures({ points: 100_000, lines: 0, linePoints: 0, polygons: 0, polygonVertices: 0, decimals: 5, pointColors: 0.25 });
  const mixed = mapFeatures(LARGE_CONTENT);
  const maps: [string, Feature[]][] = [
    ['100,000 points', points],
    ['96,000 points, 3,000 lines, 1,000 areas', mixed],
  ];
  const urls: string[] = [];
  for (const [title, features] of maps) urls.push((await service.send('map/upload', { file_type: 'geojson', visibility: 'public', title }, featureCollection(features))).url as string);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await logIn(page, new URL(urls[0]!).origin);
  await openDrawnMap(page, urls[0]!); // warm-up: the front end's bundle is built at its first request
  const rows = [];
  for (const [i, [title, features]] of maps.entries()) rows.push(...(await measure(page, urls[i]!, features, title)));
  console.table(rows);
} finally {
  await browser.close();
  await service.stop();
}
