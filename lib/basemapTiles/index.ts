// The built-in basemaps' vector tiles as the service serves them (GET /basemaps/tiles/z/x/y.pbf).
// Nothing is stored on disk or committed: at the first tile of a resolution a thread cuts and
// encodes all of its tiles (pyramid.ts) and hands them back in one buffer, kept for the life of
// the process. The whole pyramid (5,461 tiles, z0–6; 2,131 of them open ocean of no bytes) is
// 2.6 MB: less than geojson-vt's own cache of cut tiles would hold (over 100 MB once every tile
// was asked for), and what the cut needs (the data and geojson-vt's indexes, about 250 MB at the
// peak of 1:10m's) leaves with the thread. Measured on the 2-core development machine: 1:50m (z0–2, 140 kB) is ready
// about 1.1 s after its first request, 1:10m (z3–6, 2.4 MB) about 3–4 s after (reading the data
// 1 s, geojson-vt's index 0.4 s, cutting and encoding 1.5 s, the thread's start with tsx the
// rest), with the event loop free all along.
import { Worker } from 'node:worker_threads';
import type { Resolution } from '../naturalEarth.js';
import { versionTag } from '../pinnedVersions.js';
import { isBasemapTile, resolutionOfZoom, tileNumber, type EncodedPyramid } from './pyramid.js';

export { BASEMAP_LAYERS, BASEMAP_MAX_ZOOM, CAPITALS_MIN_ZOOM, countryMinZoom, isBasemapTile } from './pyramid.js';

/**
 * Names the tiles' content in their ETags: bump TILES_SCHEMA when pyramid.ts cuts differently;
 * the data and the cutting packages are named by their pinned versions.
 */
const TILES_SCHEMA = 'tiles-2'; // 2: shapes unwrapped across the antimeridian
export const BASEMAP_TILES_VERSION = versionTag(TILES_SCHEMA, [
  'world-atlas',
  'node-location-timezone',
  'topojson-client',
  '@mapbox/polylabel',
  '@maplibre/geojson-vt',
  '@maplibre/vt-pbf',
]);

/** The 1:10m cut peaks at about 250 MB; a limit keeps a fault from taking the process with it. */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 32 };

const pyramids = new Map<Resolution, Promise<EncodedPyramid>>();

function cutInThread(resolution: Resolution): Promise<EncodedPyramid> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./thread.bootstrap.mjs', import.meta.url), { workerData: { resolution }, resourceLimits: THREAD_LIMITS });
    worker.once('message', resolve);
    worker.once('error', reject);
    // After the message this does nothing; before it, the thread ended without tiles.
    worker.once('exit', (code) => reject(new Error(`The basemap tile thread (${resolution}) ended with code ${code} before its tiles were ready.`)));
  });
}

/** A resolution's tiles, cut once; a failed cut is forgotten so the next request tries again. */
function pyramidOf(resolution: Resolution): Promise<EncodedPyramid> {
  let pyramid = pyramids.get(resolution);
  if (!pyramid) {
    pyramid = cutInThread(resolution);
    pyramid.catch(() => pyramids.delete(resolution));
    pyramids.set(resolution, pyramid);
  }
  return pyramid;
}

/** The encoded tile (no bytes for open ocean), or undefined for an address outside zoom 0–6's grid. */
export async function basemapTile(z: number, x: number, y: number): Promise<Buffer | undefined> {
  if (!isBasemapTile(z, x, y)) return undefined;
  const { firstTile, bytes, offsets } = await pyramidOf(resolutionOfZoom(z));
  const i = tileNumber(z, x, y) - firstTile;
  return Buffer.from(bytes.buffer, bytes.byteOffset + offsets[i]!, offsets[i + 1]! - offsets[i]!);
}
