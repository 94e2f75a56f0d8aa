// The renderer activity (`render` task queue): reads a map's features page by page and hands
// them to a render thread (renderPool.ts), which builds the scene and draws the static image and
// the thumbnail over the map's basemap (lib/render); stores both in the blob store and records
// them on the map, then deletes the files they replace. The event loop only moves bytes: the
// database pages, the markers' files, a commercial basemap's tiles, the street map's tiles
// (BASEMAP_TILES, under a built-in basemap), the PNGs.
import type { MessagePort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { Context } from '@temporalio/activity';
import { featureTextsPage } from '../db/mapFeatures.js';
import { findMapRecord, replaceMapImageFiles } from '../db/maps.js';
import { findImages, findMarkers } from '../db/media.js';
import { pickDerivative } from '../lib/media/derivatives.js';
import { findProviderKey } from '../db/providerKeys.js';
import { STORED_FILE_PREFIXES } from '../lib/blobs/blobStore.js';
import { basemapById, DEFAULT_BASEMAP, type Basemap } from '../lib/basemaps.js';
import type { RenderMapImageInput, RenderMapImageResult } from '../lib/jobContracts.js';
import type { MapImageFile, MapImageFiles } from '../lib/maps.js';
import { missingProviderKeyError } from '../lib/providerKeys.js';
import { PALETTES } from '../lib/basemapPalettes.js';
import type { WorldBounds } from '../lib/render/mercator.js';
import { STATIC_IMAGE, THUMBNAIL, viewOf, type BackgroundPainter, type ImageSize } from '../lib/render/renderMap.js';
import { streetTilesOf, type StreetTileBytes } from '../lib/render/streetMap.js';
import type { StreetArchive } from '../lib/streetArchive/index.js';
import type { RenderPool } from './renderPool.js';
import { Inbox, type FromRenderThread, type ToRenderThread } from './renderThread.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultPoint } from './faultPoints.js';

/** Where map images live in the blob store. */
const MAP_IMAGES_PREFIX = STORED_FILE_PREFIXES.mapImage;
/**
 * Rows per read. On the embedded PGlite the database runs on the event loop, so each read holds
 * it up for as long as it takes: smaller pages, shorter holds (5,000 rows before issue 24).
 */
const PAGE = 1_000;
/** The marker size drawn (32 px) from the 64-px derivative: crisp, and small to read. */
const MARKER_DERIVATIVE = 's64';

/** Sends the map's feature texts page by page, reading the next page while the thread parses the last. */
async function sendFeatures(deps: ActivityDeps, mapId: number, port: MessagePort, inbox: Inbox<FromRenderThread>): Promise<void> {
  let after = -1;
  let page = await featureTextsPage(deps.db, mapId, after, PAGE);
  for (;;) {
    port.postMessage({ type: 'features', texts: page.map((row) => row.text) } satisfies ToRenderThread);
    const last = page.length < PAGE;
    if (!last) after = page[page.length - 1]!.ordinal;
    const next = last ? null : featureTextsPage(deps.db, mapId, after, PAGE);
    next?.catch(() => undefined); // awaited below, where a failure is thrown; not an unhandled rejection meanwhile
    // At most two pages in memory at once: the one the thread reads and the next.
    await inbox.next(); // page-read
    if (!next) break;
    page = await next;
  }
  port.postMessage({ type: 'end' } satisfies ToRenderThread);
}

/** The files of the custom markers the scene's points use; a marker that is gone is drawn as a pin. */
async function markersOf(deps: ActivityDeps, ids: string[]): Promise<[string, Uint8Array][]> {
  const files: [string, Uint8Array][] = [];
  if (ids.length === 0) return files;
  for (const marker of await findMarkers(deps.db, ids)) {
    const file = marker.derivatives.find((d) => d.name === MARKER_DERIVATIVE) ?? marker.derivatives[0];
    if (!file || !(await deps.blobs.exists(file.key))) continue;
    files.push([marker.id, await deps.blobs.read(file.key)]);
  }
  return files;
}

/** The image drawn for an overlay: the derivative for a 2048-pixel box (the static image is 1200 wide). */
const OVERLAY_DERIVATIVE_BOX = 2048;
/** Most overlay images one render reads (each is held in memory, decoded, while the images are drawn). */
export const MAX_OVERLAY_IMAGES = 20;

/** The files of the images the scene's overlays show (the first MAX_OVERLAY_IMAGES); an image that is gone leaves its overlay out. */
async function overlayImagesOf(deps: ActivityDeps, ids: string[]): Promise<[string, Uint8Array][]> {
  const files: [string, Uint8Array][] = [];
  if (ids.length === 0) return files;
  for (const image of await findImages(deps.db, ids.slice(0, MAX_OVERLAY_IMAGES))) {
    const file = pickDerivative(image.derivatives, OVERLAY_DERIVATIVE_BOX);
    if (!file || !(await deps.blobs.exists(file.key))) continue;
    files.push([image.id, await deps.blobs.read(file.key)]);
  }
  return files;
}

/** A commercial basemap's tiles for each image, painted here (network and tile cache) and handed to the thread as pixels. */
async function backgroundsOf(paintTiles: BackgroundPainter, bounds: WorldBounds | null) {
  const palette = PALETTES.classic;
  const paint = async (size: ImageSize): Promise<Uint8Array> => {
    const canvas = createCanvas(size.width, size.height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = palette.land;
    ctx.fillRect(0, 0, size.width, size.height);
    await paintTiles(ctx, viewOf(bounds, size));
    return new Uint8Array(canvas.data());
  };
  return { static: await paint(STATIC_IMAGE), thumbnail: await paint(THUMBNAIL) };
}

/** The street map tiles each image's view is drawn from, read from the archive here (its reads are I/O) as inflated bytes for the thread. */
async function streetTilesFor(archive: StreetArchive, bounds: WorldBounds | null) {
  const read = async (size: ImageSize): Promise<StreetTileBytes[]> => {
    const tiles: StreetTileBytes[] = [];
    for (const address of streetTilesOf(viewOf(bounds, size), archive.info)) {
      const bytes = await archive.decodedTile(address.z, address.x, address.y);
      if (bytes) tiles.push({ ...address, bytes });
    }
    return tiles;
  };
  return { static: await read(STATIC_IMAGE), thumbnail: await read(THUMBNAIL) };
}

async function tilePainter(deps: ActivityDeps, basemap: Basemap, ownerId: number, owner: string): Promise<BackgroundPainter | undefined> {
  if (basemap.drawing.type !== 'xyz') return undefined;
  if (!deps.paintTiles) throw new Error('This worker cannot fetch basemap tiles');
  // An operator's basemap that needs no key (BASEMAPS_EXTRA): the same tiles for everyone (account 0).
  if (basemap.providerKind === null) return deps.paintTiles(basemap, { accountId: 0, key: '' });
  // The owner's key, else the service's own (renders are few: the heavy-traffic limit is the browser's).
  const key = (await findProviderKey(deps.db, ownerId, basemap.providerKind)) ?? deps.serviceProviderKeys?.[basemap.providerKind];
  if (!key) throw missingProviderKeyError({ name: basemap.name, providerKind: basemap.providerKind }, owner);
  return deps.paintTiles(basemap, { accountId: ownerId, key });
}

async function store(deps: ActivityDeps, png: Buffer, size: { width: number; height: number }): Promise<MapImageFile> {
  const stored = await deps.blobs.putBuffer(MAP_IMAGES_PREFIX, png);
  return { key: stored.key, size: stored.size, width: size.width, height: size.height };
}

export function makeRenderMapImage(deps: ActivityDeps, renderer: RenderPool) {
  return function renderMapImage(input: RenderMapImageInput): Promise<RenderMapImageResult> {
    return failingOnBadInput(async () => {
      // Heartbeats: a worker that dies mid-render is noticed within the heartbeat timeout (the
      // workflow's), not the 2-minute limit, and the render retried on another.
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 2_000);
      try {
        return await render(deps, renderer, input, context.cancellationSignal);
      } finally {
        clearInterval(beat);
      }
    });
  };
}

/** Draws the map in a render thread and records its new files (the previous ones deleted). */
async function render(deps: ActivityDeps, renderer: RenderPool, input: RenderMapImageInput, signal: AbortSignal): Promise<RenderMapImageResult> {
  const map = await findMapRecord(deps.db, input.mapId);
  if (!map) return { rendered: false, reason: 'map_gone' };
  const basemap = basemapById(map.basemap) ?? basemapById(DEFAULT_BASEMAP)!;
  const paintTiles = await tilePainter(deps, basemap, map.ownerId, map.owner);
  const images = await renderer.render(
    basemap,
    async (port) => {
      const inbox = new Inbox<FromRenderThread>(port);
      await sendFeatures(deps, map.id, port, inbox);
      const needs = await inbox.next();
      if (needs.type !== 'scene') throw new Error(`Unexpected message ${needs.type}`);
      const markers = await markersOf(deps, needs.markerIds);
      const overlays = await overlayImagesOf(deps, needs.overlayImageIds);
      const backgrounds = paintTiles ? await backgroundsOf(paintTiles, needs.bounds) : null;
      const streets = deps.streets && basemap.drawing.type === 'builtin' ? await streetTilesFor(deps.streets, needs.bounds) : null;
      port.postMessage({ type: 'assets', markers, overlays, backgrounds, streets } satisfies ToRenderThread);
    },
    signal,
  );
  const files: MapImageFiles = {
    static: await store(deps, Buffer.from(images.static), STATIC_IMAGE),
    thumbnail: await store(deps, Buffer.from(images.thumbnail), THUMBNAIL),
    renderedAt: new Date().toISOString(),
  };
  // A worker stopped here leaves the two files to the hourly orphan sweep (activities/sweepOrphanBlobs.ts).
  await faultPoint('map-image-stored');
  const replaced = await replaceMapImageFiles(deps.db, map.id, files);
  const unused = replaced ? [replaced.previous?.static.key, replaced.previous?.thumbnail.key] : [files.static.key, files.thumbnail.key];
  await Promise.all(unused.filter((key): key is string => !!key).map((key) => deps.blobs.delete(key)));
  return replaced ? { rendered: true, renderedAt: files.renderedAt } : { rendered: false, reason: 'map_gone' };
}
