// One side of the static-map comparison (bench/render.ts), alone in its own process so that its
// peak memory is its own: draws the benchmark's 1,000-feature map (bench/generate/mapContent.ts)
// one warm-up and `runs` more times, writes the last PNG, and prints one line
// `RESULT {json}` with the times, the resident memory when idle (modules loaded, content made)
// and the process's peak (`process.resourceUsage().maxRSS`, the warm-up included). A line
// `WARM` says the warm-up is over (the parent samples the peak of the timed runs apart).
// The `-streets` sides draw the same map moved over Helsinki at street zoom (STREET_BOX) on the
// street map: ours from the archive named by BENCH_STREET_ARCHIVE (its tiles read each time, as
// the render activity reads them), staticmaps from raster tiles of it.
//   node --import tsx bench/renderSide.ts ours|staticmaps|staticmaps-plain|ours-streets|staticmaps-streets[-plain] <runs> <out.png> [<tile URL> <markers folder> <staticmaps folder>]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEFAULT_FEATURE_COLOR } from '../lib/featureStyle.js';
import { mapFeatures, movedTo, PIN, pinFile, RENDER_CONTENT, STREET_BOX, type Feature } from './generate/mapContent.js';

type Side = 'ours' | 'staticmaps' | 'staticmaps-plain' | 'ours-streets' | 'staticmaps-streets' | 'staticmaps-streets-plain';


/** What this benchmark uses of staticmaps 1.13 (the package has no types). */
interface StaticMap {
  addBound(options: { coords: number[][] }): void;
  addMarker(options: { coord: number[]; img: string; width: number; height: number; offsetX: number; offsetY: number }): void;
  addLine(options: { coords: number[][]; color: string; width: number }): void;
  addPolygon(options: { coords: number[][]; color: string; width: number; fill: string }): void;
  addText(options: { coord: number[]; text: string; size: number; font: string; fill: string; color: string; width: number; anchor: 'start' | 'middle'; offsetX: number; offsetY: number }): void;
  render(): Promise<void>;
  image: { buffer(mime: 'image/png'): Promise<Buffer> };
}
type StaticMapsClass = new (options: Record<string, unknown>) => StaticMap;

const [side, runsArg, outFile, tileUrl, markersDir, toolDir] = process.argv.slice(2) as [Side, string, string, string?, string?, string?];
const runs = Number(runsArg);
const features = side?.includes('-streets') ? movedTo(mapFeatures(RENDER_CONTENT), STREET_BOX) : mapFeatures(RENDER_CONTENT);

async function oursRenderer(): Promise<() => Promise<Buffer>> {
  const { Scene } = await import('../lib/render/scene.js');
  const { renderMapImage, STATIC_IMAGE } = await import('../lib/render/renderMap.js');
  const { basemapById } = await import('../lib/basemaps.js');
  const basemap = basemapById('classic')!;
  // What the render activity does with each row it reads (the rows are parsed already here).
  return () => {
    const scene = new Scene();
    for (const feature of features) scene.addFeature(feature);
    return renderMapImage({ scene, basemap, markers: new Map() }, STATIC_IMAGE);
  };
}

async function oursWithStreets(): Promise<() => Promise<Buffer>> {
  const { Scene } = await import('../lib/render/scene.js');
  const { renderMapImage, STATIC_IMAGE, viewOf } = await import('../lib/render/renderMap.js');
  const { streetTilesOf } = await import('../lib/render/streetMap.js');
  const { openStreetArchive } = await import('../lib/streetArchive/index.js');
  const { basemapById } = await import('../lib/basemaps.js');
  const basemap = basemapById('classic')!;
  const archive = await openStreetArchive({ kind: 'file', path: process.env.BENCH_STREET_ARCHIVE! }, 64 * 1024 * 1024);
  return async () => {
    const scene = new Scene();
    for (const feature of features) scene.addFeature(feature);
    // The activity's part (reading the view's tiles), then the thread's (drawing).
    const streets = [];
    for (const address of streetTilesOf(viewOf(scene.bounds, STATIC_IMAGE), archive.info)) {
      const bytes = await archive.decodedTile(address.z, address.x, address.y);
      if (bytes) streets.push({ ...address, bytes });
    }
    return renderMapImage({ scene, basemap, markers: new Map(), streets }, STATIC_IMAGE);
  };
}

/** The middle position of a line and the centre of a polygon's box: where our renderer puts their titles. */
function middleOf(coordinates: number[][]): number[] {
  return coordinates[Math.floor(coordinates.length / 2)]!;
}
function centreOf(ring: number[][]): number[] {
  const lons = ring.map((p) => p[0]!);
  const lats = ring.map((p) => p[1]!);
  return [(Math.min(...lons) + Math.max(...lons)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2];
}

const rgba = (color: string, alpha: number) =>
  `rgba(${parseInt(color.slice(1, 3), 16)},${parseInt(color.slice(3, 5), 16)},${parseInt(color.slice(5, 7), 16)},${alpha})`;

async function staticmapsRenderer(withIcons: boolean): Promise<() => Promise<Buffer>> {
  if (!tileUrl || !markersDir || !toolDir) throw new Error('staticmaps needs a tile URL, the markers folder and its install folder');
  const StaticMaps = createRequire(path.join(toolDir, 'package.json'))('staticmaps') as StaticMapsClass;
  // Our labels: 12 px (9 pt), dark grey; staticmaps draws every one (no collision test).
  const label = { size: 9, font: 'DejaVu Sans', fill: '#222222', color: '#ffffff', width: 0 };
  const add = (map: StaticMap, feature: Feature) => {
    const { geometry, properties } = feature;
    const color = typeof properties.color === 'string' ? properties.color : DEFAULT_FEATURE_COLOR;
    const title = String(properties.title);
    switch (geometry.type) {
      case 'Point':
        if (withIcons) map.addMarker({
          coord: geometry.coordinates,
          img: pinFile(markersDir, String(properties['marker-symbol']), color),
          width: PIN.width,
          height: PIN.height,
          offsetX: PIN.tipX,
          offsetY: PIN.tipY,
        });
        // Right of the pin, level with its icon (as placeFeatureLabels puts it).
        map.addText({ ...label, coord: geometry.coordinates, text: title, anchor: 'start', offsetX: -15, offsetY: 17 });
        return;
      case 'LineString':
        map.addLine({ coords: geometry.coordinates, color, width: Number(properties['stroke-width']) });
        map.addText({ ...label, coord: middleOf(geometry.coordinates), text: title, anchor: 'middle', offsetX: 0, offsetY: -4 });
        return;
      case 'Polygon':
        map.addPolygon({ coords: geometry.coordinates[0]!, color, width: Number(properties['stroke-width']), fill: rgba(color, 0.25) });
        map.addText({ ...label, coord: centreOf(geometry.coordinates[0]!), text: title, anchor: 'middle', offsetX: 0, offsetY: -4 });
        return;
    }
  };
  const points = features.flatMap((f) => (f.geometry.type === 'Point' ? [f.geometry.coordinates] : []));
  const pointBox = [
    [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1]))],
    [Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))],
  ];
  return async () => {
    // tileUrl must be a URL: `tileUrl: null` (or '') does not mean "no basemap" in staticmaps
    // 1.13, it silently falls back to https://tile.openstreetmap.org (its constructor passes
    // only a truthy tileUrl on), which this machine cannot reach; the tiles come from the local
    // server bench/render.ts starts on 127.0.0.1.
    const map = new StaticMaps({ width: 1200, height: 630, paddingX: 48, paddingY: 48, tileUrl, tileRequestTimeout: 5_000 });
    for (const feature of features) add(map, feature);
    // Without markers the points still frame the map (their titles are drawn either way).
    if (!withIcons) map.addBound({ coords: pointBox });
    await map.render();
    return map.image.buffer('image/png');
  };
}

const render =
  side === 'ours' ? await oursRenderer() : side === 'ours-streets' ? await oursWithStreets() : await staticmapsRenderer(side === 'staticmaps' || side === 'staticmaps-streets');
const idleRss = process.memoryUsage.rss();
const coldStarted = performance.now();
let png = await render();
const coldMs = performance.now() - coldStarted;
const warmRss = process.memoryUsage.rss();
// The parent samples this process's memory; from here on it counts the timed runs apart.
console.log('WARM');
const ms: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const started = performance.now();
  png = await render();
  ms.push(performance.now() - started);
}
fs.writeFileSync(outFile, png);
// maxRSS is in kilobytes.
console.log(`RESULT ${JSON.stringify({ side, coldMs, ms, idleRss, warmRss, peakRss: process.resourceUsage().maxRSS * 1024, pngBytes: png.length })}`);
