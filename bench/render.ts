// Static map images: our renderer (lib/render) against the npm package `staticmaps`, in the same
// run, on the same 1,000-feature map (bench/generate/mapContent.ts: 700 points with Maki icons,
// colours and titles, 200 lines of 40 positions, 100 polygons, all titled, over western Europe),
// 1200×630 PNG. Each side runs alone in its own process (bench/renderSide.ts): one warm-up, the
// median of 5, and the process's peak RSS above its idle RSS (modules loaded, content made),
// the warm-up included (for us that is Natural Earth's first load) and, sampled from here, in
// the timed runs alone. Ours draws the built-in `classic` basemap; staticmaps gets its tiles
// from a tile server this benchmark starts on 127.0.0.1 (PNG tiles of the same Natural Earth
// basemap, made by our code once and kept) and pin pictures of the same icons as PNG files
// (bench/generate/pinImages.ts). staticmaps is also timed without the 700 markers (their
// titles kept). Prints the time ratio (ours / staticmaps; the
// target is at most 0.10) and memory; both PNGs go to bench/out/render-ours.png and
// bench/out/render-staticmaps.png.
// Then map/refresh_image end to end through a fresh embedded service on PostgreSQL, for a map of
// 1,000 features (the same) and one of 100,000 (mostly points), median of 3 (the service runs
// with IMAGE_REFRESH_SPACING=1s), and where the render activity's time goes for each map,
// piece by piece, measured in this process on the service's database (its images go to
// bench/out/render/refresh-<features>.png).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { openDb } from '../db/connection.js';
import { featureTextsPage } from '../db/mapFeatures.js';
import { PALETTES } from '../lib/basemapPalettes.js';
import { basemapById } from '../lib/basemaps.js';
import { sharp } from '../lib/media/sharp.js';
import { drawBuiltinBasemap, drawBuiltinLabels } from '../lib/render/builtinBasemap.js';
import { drawFeatureLabels, drawFeatures, placeFeatureLabels } from '../lib/render/drawFeatures.js';
import { registerFonts } from '../lib/render/fonts.js';
import { LabelSpace } from '../lib/render/labelSpace.js';
import { frameView, type View } from '../lib/render/mercator.js';
import { renderMapImage, STATIC_IMAGE, THUMBNAIL } from '../lib/render/renderMap.js';
import { Scene } from '../lib/render/scene.js';
import { decodeStreetTiles, drawStreetLabels, drawStreetShapes, streetTilesOf, type StreetTileBytes } from '../lib/render/streetMap.js';
import { openStreetArchive, type StreetArchive } from '../lib/streetArchive/index.js';
import { STREET_PALETTES } from '../lib/streetStyle/palettes.js';
import { ensureStreetFixture } from '../scripts/basemap/build.js';
import { featureCollection, LARGE_CONTENT, mapFeatures, RENDER_CONTENT } from './generate/mapContent.js';
import { writePinImages } from './generate/pinImages.js';
import { rssOf, startBenchService, withPeakRss, type BenchService } from './service.js';
import { summarize } from './stats.js';

const STATICMAPS = 'staticmaps@1.13.1';
const RUNS = 5;
const REFRESH_RUNS = 3;
const MB = 1024 * 1024;
const TARGET = 0.1;
/** The street comparison's target (issue 25). */
const STREET_TARGET = 0.5;
const OUT = path.resolve('bench/out');
const TOOL_DIR = fileURLToPath(new URL('.tools/staticmaps', import.meta.url));
const MARKERS_DIR = path.join(OUT, 'render', 'markers');

/** staticmaps, installed on first use into bench/.tools/staticmaps (not a project dependency; .tools/ is ignored by git). */
function ensureStaticmaps(): string {
  const stamp = path.join(TOOL_DIR, '.installed');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === STATICMAPS) return TOOL_DIR;
  console.log(`Installing ${STATICMAPS} from npm into ${TOOL_DIR} …`);
  fs.rmSync(TOOL_DIR, { recursive: true, force: true });
  fs.mkdirSync(TOOL_DIR, { recursive: true });
  // A package.json of its own, so npm installs here and never into the project above.
  fs.writeFileSync(path.join(TOOL_DIR, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--prefix', TOOL_DIR, '--no-save', '--no-audit', '--no-fund', STATICMAPS], { stdio: ['ignore', 'inherit', 'inherit'] });
  fs.writeFileSync(stamp, STATICMAPS);
  return TOOL_DIR;
}

/**
 * A raster tile server on 127.0.0.1 for staticmaps: `/{z}/{x}/{y}.png`, 256-px PNG tiles of
 * the classic basemap (land, water, borders; no labels) drawn by our Natural Earth code and
 * encoded by sharp on first request, then served from memory.
 */
async function startTileServer(streets?: StreetArchive): Promise<{ url: string; served: () => number; close: () => Promise<void> }> {
  const palette = PALETTES.classic;
  const tiles = new Map<string, Promise<Buffer>>();
  const tile = (z: number, x: number, y: number): Promise<Buffer> => {
    const key = `${z}/${x}/${y}`;
    let png = tiles.get(key);
    if (!png) {
      const canvas = createCanvas(256, 256);
      const ctx = canvas.getContext('2d');
      const view: View = { width: 256, height: 256, worldSize: 256 * 2 ** z, zoom: z, left: x / 2 ** z, top: y / 2 ** z };
      png = (streets ? drawStreetTile(ctx, view, streets) : Promise.resolve(drawBuiltinBasemap(ctx, view, palette))).then(() => {
        const pixels = ctx.getImageData(0, 0, 256, 256);
        return sharp(Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), { raw: { width: 256, height: 256, channels: 4 } })
          .removeAlpha()
          .png()
          .toBuffer();
      });
      tiles.set(key, png);
    }
    return png;
  };
  let served = 0;
  const server = http.createServer((request, response) => {
    const match = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(request.url ?? '');
    const [z, x, y] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [NaN, NaN, NaN];
    if (!match || z > 20 || x >= 2 ** z || y >= 2 ** z) {
      response.writeHead(404).end();
      return;
    }
    tile(z, x, y).then(
      (png) => {
        served += 1;
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
      },
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    served: () => served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A 256-px raster tile of the classic basemap with the street map (names included, as raster tile servers draw them). */
async function drawStreetTile(ctx: SKRSContext2D, view: View, streets: StreetArchive): Promise<void> {
  drawBuiltinBasemap(ctx, view, PALETTES.classic);
  const tiles: StreetTileBytes[] = [];
  for (const address of streetTilesOf(view, streets.info)) {
    const bytes = await streets.decodedTile(address.z, address.x, address.y);
    if (bytes) tiles.push({ ...address, bytes });
  }
  const decoded = decodeStreetTiles(tiles, view);
  drawStreetShapes(ctx, view, decoded, STREET_PALETTES.classic, 1);
  await drawStreetLabels(ctx, view, decoded, STREET_PALETTES.classic, new LabelSpace(view.width, view.height), 1);
}

interface SideResult {
  side: string;
  /** The warm-up: the first image of a fresh process. */
  coldMs: number;
  ms: number[];
  idleRss: number;
  /** RSS after the warm-up. */
  warmRss: number;
  /** The process's peak RSS, the warm-up included. */
  peakRss: number;
  /** The highest RSS sampled (every 10 ms, from here) during the timed runs. */
  warmPeakRss: number;
  pngBytes: number;
}

/** One side in a process of its own (the same Node flags as `npm start`). */
function runSide(side: 'ours' | 'staticmaps' | 'staticmaps-plain' | 'ours-streets' | 'staticmaps-streets' | 'staticmaps-streets-plain', out: string, tiles?: { url: string }): Promise<SideResult> {
  const args = ['--max-semi-space-size=2', '--import', 'tsx', 'bench/renderSide.ts', side, String(RUNS), out];
  if (tiles) args.push(tiles.url, MARKERS_DIR, TOOL_DIR);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_STREET_ARCHIVE: ensureStreetFixture(() => {}) } });
    let output = '';
    let warmPeakRss = 0;
    let sampler: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!sampler && output.includes('WARM\n')) {
        sampler = setInterval(() => {
          try {
            warmPeakRss = Math.max(warmPeakRss, rssOf(child.pid!));
          } catch {
            // the process has just ended
          }
        }, 10);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(sampler);
      const line = output.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`bench/renderSide.ts ${side} exited with ${code}: ${output.slice(-2000)}`));
      else resolve({ ...(JSON.parse(line.slice('RESULT '.length)) as Omit<SideResult, 'warmPeakRss'>), warmPeakRss });
    });
  });
}

async function compareRenderers() {
  const toolDir = ensureStaticmaps();
  const version = (JSON.parse(fs.readFileSync(path.join(toolDir, 'node_modules/staticmaps/package.json'), 'utf8')) as { version: string }).version;
  await writePinImages(MARKERS_DIR);
  const tiles = await startTileServer();
  try {
    const ours = await runSide('ours', path.join(OUT, 'render-ours.png'));
    const before = tiles.served();
    const icons = await runSide('staticmaps', path.join(OUT, 'render-staticmaps.png'), tiles);
    const tilesPerRender = (tiles.served() - before) / (RUNS + 1);
    const plain = await runSide('staticmaps-plain', path.join(OUT, 'render', 'staticmaps-no-markers.png'), tiles);
    // staticmaps draws a map without the tiles it could not fetch, silently: none may be missing.
    if (tilesPerRender < 1) throw new Error('staticmaps fetched no tiles from the local tile server');
    const median = (r: SideResult) => summarize(r.ms).median;
    const aboveIdle = (r: SideResult, rss: number) => +((rss - r.idleRss) / MB).toFixed(0);
    const row = (name: string, r: SideResult) => ({
      renderer: name,
      median_ms: Math.round(median(r)),
      ratio_ours_to_it: r === ours ? undefined : +(median(ours) / median(r)).toFixed(3),
      target: r === ours ? undefined : TARGET,
      first_image_ms: Math.round(r.coldMs),
      peak_mb_above_idle: aboveIdle(r, r.peakRss),
      after_warmup_mb_above_idle: aboveIdle(r, r.warmRss),
      timed_runs_peak_mb_above_idle: aboveIdle(r, r.warmPeakRss),
      idle_rss_mb: Math.round(r.idleRss / MB),
      png_kb: Math.round(r.pngBytes / 1024),
    });
    return {
      staticmaps: version,
      rows: [row('ours (classic, built-in)', ours), row('staticmaps, 700 icon markers', icons), row('staticmaps, no markers', plain)],
      details: {
        ours_ms: ours.ms.map(Math.round),
        staticmaps_ms: icons.ms.map(Math.round),
        staticmaps_no_markers_ms: plain.ms.map(Math.round),
        staticmaps_tiles_per_render: tilesPerRender,
      },
    };
  } finally {
    await tiles.close();
  }
}

/**
 * The same 1,000 features moved over central Helsinki (street zoom), on the classic basemap with
 * the street fixture archive (built as the tests build it): ours reads the view's vector tiles
 * and draws them; staticmaps composes 256-px raster tiles of the same street map (drawn by our
 * code once and kept, as a raster tile server would have them ready) with its 700 markers.
 * Target: at most 0.5× staticmaps's time (issue 25).
 */
async function compareStreetRenderers() {
  ensureStaticmaps();
  await writePinImages(MARKERS_DIR);
  const archive = await openStreetArchive({ kind: 'file', path: ensureStreetFixture(() => {}) }, 64 * MB);
  const tiles = await startTileServer(archive);
  try {
    const ours = await runSide('ours-streets', path.join(OUT, 'render', 'streets-ours.png'));
    const before = tiles.served();
    const theirs = await runSide('staticmaps-streets', path.join(OUT, 'render', 'streets-staticmaps.png'), tiles);
    const tilesPerRender = (tiles.served() - before) / (RUNS + 1);
    const plain = await runSide('staticmaps-streets-plain', path.join(OUT, 'render', 'streets-staticmaps-no-markers.png'), tiles);
    if (tilesPerRender < 1) throw new Error('staticmaps fetched no tiles from the local tile server');
    const median = (r: SideResult) => summarize(r.ms).median;
    const row = (name: string, r: SideResult) => ({
      renderer: name,
      median_ms: Math.round(median(r)),
      ratio_ours_to_it: r === ours ? undefined : +(median(ours) / median(r)).toFixed(3),
      target: r === ours ? undefined : STREET_TARGET,
      first_image_ms: Math.round(r.coldMs),
      peak_mb_above_idle: +((r.peakRss - r.idleRss) / MB).toFixed(0),
      timed_runs_peak_mb_above_idle: +((r.warmPeakRss - r.idleRss) / MB).toFixed(0),
      png_kb: Math.round(r.pngBytes / 1024),
    });
    return { rows: [row('ours (classic with streets, vector tiles)', ours), row('staticmaps, 700 icon markers, raster street tiles', theirs), row('staticmaps, no markers, raster street tiles', plain)], staticmaps_tiles_per_render: tilesPerRender };
  } finally {
    await tiles.close();
    await archive.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the map's first image (rendered after the upload) is served instead of the placeholder. */
async function firstImage(service: BenchService, owner: string, shortName: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${service.base}/${owner}/${shortName}/static.png`, { method: 'HEAD', headers: { authorization: `Token ${service.key}` } });
    if (response.status !== 200) throw new Error(`static.png answered ${response.status}`);
    if (response.headers.get('etag') !== '"placeholder-static"') return;
    if (Date.now() > deadline) throw new Error(`the first image did not appear within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** map/refresh_image (a JSON operation: its arguments are the body). */
async function refreshImage(service: BenchService, mapId: number): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.base}/api/1/map/refresh_image`, {
    method: 'POST',
    headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ map_id: mapId }),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (answer.error) throw new Error(`map/refresh_image failed: ${String(answer.error)}`);
  return answer;
}

const timed = async <T>(fn: () => Promise<T> | T): Promise<[T, number]> => {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
};

/**
 * Where the render activity's time goes (activities/renderMapImage.ts), in this process on the
 * service's database: reading the feature rows (pages of 5,000; psql reading them in one query
 * beside it), JSON.parse, the scene, then the static image's steps as renderMapImage takes them
 * (basemap, title placement, the basemap's own labels, features, titles, reading the pixels back,
 * sharp's PNG encoding; the attribution box is left out), and renderMapImage itself for the
 * static image and the thumbnail. Skia records draw calls and rasterises them when the pixels
 * are read, so "getImageData" holds part of the drawing. Medians of 3 after a warm-up, in
 * milliseconds.
 */
async function renderPieces(service: BenchService, mapId: number): Promise<Record<string, number>> {
  const databaseName = service.databaseName!;
  const db = openDb({ databaseUrl: service.databaseUrl!, pgliteDir: undefined });
  const basemap = basemapById('classic')!;
  const palette = PALETTES.classic;
  try {
    const once = async () => {
      const piece: Record<string, number> = {};
      const [texts, read] = await timed(async () => {
        const all: string[] = [];
        for (let after = -1; ; ) {
          const page = await featureTextsPage(db, mapId, after, 5_000);
          for (const row of page) all.push(row.text);
          if (page.length < 5_000) return all;
          after = page[page.length - 1]!.ordinal;
        }
      });
      piece['read rows'] = read;
      // The same rows read by psql in one query, its output dropped: what the database itself costs.
      piece['read rows: psql, one query (reference)'] = (
        await timed(() =>
          execFileSync(
            'psql',
            [
              ...['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', databaseName],
              ...['-c', `copy (select ordinal, feature from map_features where map_id = ${mapId} order by ordinal) to stdout`],
            ],
            { stdio: 'ignore' },
          ),
        )
      )[1];
      const [parsed, parse] = await timed(() => texts.map((text) => JSON.parse(text) as unknown));
      piece['JSON.parse'] = parse;
      const [scene, build] = await timed(() => {
        const s = new Scene();
        for (const feature of parsed) s.addFeature(feature);
        return s;
      });
      piece['scene (addFeature)'] = build;
      registerFonts();
      const size = STATIC_IMAGE;
      const view = frameView(scene.bounds, { width: size.width, height: size.height, padding: 48, maxZoom: 15 });
      const canvas = createCanvas(size.width, size.height);
      const ctx = canvas.getContext('2d');
      const space = new LabelSpace(size.width, size.height);
      piece['static: basemap'] = (await timed(() => drawBuiltinBasemap(ctx, view, palette)))[1];
      const [labels, place] = await timed(() => placeFeatureLabels(ctx, scene, view, space, size.scale));
      piece['static: place titles'] = place;
      piece['static: basemap labels'] = (await timed(() => drawBuiltinLabels(ctx, view, palette, space, size.scale)))[1];
      piece['static: features'] = (await timed(() => drawFeatures(ctx, scene, { view, scale: size.scale, markers: new Map() })))[1];
      piece['static: draw titles'] = (await timed(() => drawFeatureLabels(ctx, labels, size.scale)))[1];
      const [pixels, readBack] = await timed(() => ctx.getImageData(0, 0, size.width, size.height));
      piece['static: getImageData'] = readBack;
      piece['static: PNG encode (sharp)'] = (
        await timed(() =>
          sharp(Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), { raw: { width: size.width, height: size.height, channels: 4 } })
            .removeAlpha()
            .png({ compressionLevel: 6, adaptiveFiltering: false })
            .toBuffer(),
        )
      )[1];
      const [png, whole] = await timed(() => renderMapImage({ scene, basemap, markers: new Map() }, STATIC_IMAGE));
      piece['renderMapImage static (whole)'] = whole;
      fs.writeFileSync(path.join(OUT, 'render', `refresh-${scene.size}.png`), png);
      piece['renderMapImage thumbnail (whole)'] = (await timed(() => renderMapImage({ scene, basemap, markers: new Map() }, THUMBNAIL)))[1];
      return piece;
    };
    await once();
    const samples: Record<string, number>[] = [];
    for (let i = 0; i < 3; i += 1) samples.push(await once());
    return Object.fromEntries(Object.keys(samples[0]!).map((name) => [name, Math.round(summarize(samples.map((s) => s[name]!)).median)]));
  } finally {
    await db.destroy();
  }
}

async function refreshEndToEnd() {
  // IMAGE_REFRESH_SPACING=1s: a refresh may render again a second after the last one started
  // (the default 5 minutes would allow one timed call per map).
  const service = await startBenchService('pg', { IMAGE_REFRESH_SPACING: '1s' });
  const rows: Record<string, unknown>[] = [];
  const pieces: Record<string, Record<string, number>> = {};
  try {
    await service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, '{"type":"Point","coordinates":[1,2]}');
    for (const [name, content, seed] of [
      ['1,000 features', RENDER_CONTENT, 11],
      ['100,000 features', LARGE_CONTENT, 12],
    ] as const) {
      const bytes = featureCollection(mapFeatures(content, seed));
      const [answer, uploadMs] = await timed(() => service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, bytes));
      const features = (answer.import as { features: number }).features;
      const [, firstMs] = await timed(() => firstImage(service, String(answer.owner), String(answer.short_name), 120_000));
      const idle = rssOf(service.pid);
      let peak = idle;
      const samples: number[] = [];
      for (let i = 0; i < REFRESH_RUNS; i += 1) {
        await sleep(1_200); // past the spacing since the last render started
        const measured = await withPeakRss(service.pid, () => timed(() => refreshImage(service, answer.id as number)));
        const [refreshed, ms] = measured.result;
        if (refreshed.message !== 'Static image refreshed.') throw new Error(`map/refresh_image did not render: ${String(refreshed.message)}`);
        samples.push(ms);
        peak = Math.max(peak, measured.peak);
      }
      rows.push({
        map: name,
        features,
        geojson_mb: +(Buffer.byteLength(bytes) / MB).toFixed(1),
        upload_ms: Math.round(uploadMs),
        first_image_after_upload_ms: Math.round(firstMs),
        refresh_image_ms: Math.round(summarize(samples).median),
        refresh_runs_ms: samples.map(Math.round).join(', '),
        peak_mb_above_idle: +((peak - idle) / MB).toFixed(0),
      });
      pieces[name] = await renderPieces(service, answer.id as number);
    }
  } finally {
    await service.stop();
  }
  return { rows, pieces };
}

export async function benchRender() {
  fs.mkdirSync(path.join(OUT, 'render'), { recursive: true });
  // `npm run bench -- render compare`, `… render streets` or `… render refresh` runs one part.
  const only = process.argv[3];
  if (only === 'streets') return { streets: await compareStreetRenderers() };
  const comparison = only === 'refresh' ? undefined : await compareRenderers();
  const streets = only === 'refresh' ? undefined : await compareStreetRenderers();
  const refresh = only === 'compare' ? undefined : await refreshEndToEnd();
  return { comparison, streets, refresh };
}
