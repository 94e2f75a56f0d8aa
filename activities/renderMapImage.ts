// The renderer activity (`render` task queue): reads a map's features page by page into a scene,
// draws the static image and the thumbnail over the map's basemap (lib/render), stores both in
// the blob store and records them on the map, then deletes the files they replace.
import { loadImage, type Image } from '@napi-rs/canvas';
import { Context } from '@temporalio/activity';
import { featureTextsPage } from '../db/mapFeatures.js';
import { findMapRecord, replaceMapImageFiles } from '../db/maps.js';
import { findMarkers } from '../db/media.js';
import { findProviderKey } from '../db/providerKeys.js';
import { STORED_FILE_PREFIXES } from '../lib/blobs/blobStore.js';
import { basemapById, DEFAULT_BASEMAP, type Basemap } from '../lib/basemaps.js';
import type { RenderMapImageInput, RenderMapImageResult } from '../lib/jobContracts.js';
import type { MapImageFile, MapImageFiles } from '../lib/maps.js';
import { missingProviderKeyError } from '../lib/providerKeys.js';
import { renderMapImages, STATIC_IMAGE, THUMBNAIL, type BackgroundPainter } from '../lib/render/renderMap.js';
import { Scene } from '../lib/render/scene.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultPoint } from './faultPoints.js';

/** Where map images live in the blob store. */
const MAP_IMAGES_PREFIX = STORED_FILE_PREFIXES.mapImage;
const PAGE = 5_000;
/** The marker size drawn (32 px) from the 64-px derivative: crisp, and small to read. */
const MARKER_DERIVATIVE = 's64';

async function sceneOf(deps: ActivityDeps, mapId: number): Promise<Scene> {
  const scene = new Scene();
  let after = -1;
  for (;;) {
    const page = await featureTextsPage(deps.db, mapId, after, PAGE);
    for (const row of page) scene.addFeatureText(row.text);
    if (page.length < PAGE) return scene;
    after = page[page.length - 1]!.ordinal;
  }
}

/** The images of the custom markers the scene's points use; a marker that is gone is drawn as a pin. */
async function markersOf(deps: ActivityDeps, scene: Scene): Promise<Map<string, Image>> {
  const ids = [...new Set(scene.points.flatMap((point) => (point.markerId ? [point.markerId] : [])))];
  const images = new Map<string, Image>();
  if (ids.length === 0) return images;
  for (const marker of await findMarkers(deps.db, ids)) {
    const file = marker.derivatives.find((d) => d.name === MARKER_DERIVATIVE) ?? marker.derivatives[0];
    if (!file || !(await deps.blobs.exists(file.key))) continue;
    images.set(marker.id, await loadImage(await deps.blobs.read(file.key)));
  }
  return images;
}

async function tilePainter(deps: ActivityDeps, basemap: Basemap, ownerId: number, owner: string): Promise<BackgroundPainter | undefined> {
  if (basemap.providerKind === null) return undefined;
  // The owner's key, else the service's own (renders are few: the heavy-traffic limit is the browser's).
  const key = (await findProviderKey(deps.db, ownerId, basemap.providerKind)) ?? deps.serviceProviderKeys?.[basemap.providerKind];
  if (!key) throw missingProviderKeyError({ name: basemap.name, providerKind: basemap.providerKind }, owner);
  if (!deps.paintTiles) throw new Error('This worker cannot fetch basemap tiles');
  return deps.paintTiles(basemap, { accountId: ownerId, key });
}

async function store(deps: ActivityDeps, png: Buffer, size: { width: number; height: number }): Promise<MapImageFile> {
  const stored = await deps.blobs.putBuffer(MAP_IMAGES_PREFIX, png);
  return { key: stored.key, size: stored.size, width: size.width, height: size.height };
}

export function makeRenderMapImage(deps: ActivityDeps) {
  return function renderMapImage(input: RenderMapImageInput): Promise<RenderMapImageResult> {
    return failingOnBadInput(async () => {
      // Heartbeats: a worker that dies mid-render is noticed within the heartbeat timeout (the
      // workflow's), not the 2-minute limit, and the render retried on another.
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 2_000);
      try {
        return await render(deps, input);
      } finally {
        clearInterval(beat);
      }
    });
  };
}

/** Draws the map and records its new files (the previous ones deleted). */
async function render(deps: ActivityDeps, input: RenderMapImageInput): Promise<RenderMapImageResult> {
  const map = await findMapRecord(deps.db, input.mapId);
  if (!map) return { rendered: false, reason: 'map_gone' };
  const basemap = basemapById(map.basemap) ?? basemapById(DEFAULT_BASEMAP)!;
  const paintTiles = await tilePainter(deps, basemap, map.ownerId, map.owner);
  const scene = await sceneOf(deps, map.id);
  const markers = await markersOf(deps, scene);
  const images = await renderMapImages({ scene, basemap, markers, ...(paintTiles ? { paintTiles } : {}) });
  const files: MapImageFiles = {
    static: await store(deps, images.static, STATIC_IMAGE),
    thumbnail: await store(deps, images.thumbnail, THUMBNAIL),
    renderedAt: new Date().toISOString(),
  };
  // A worker stopped here leaves the two files to the hourly orphan sweep (activities/sweepOrphanBlobs.ts).
  await faultPoint('map-image-stored');
  const replaced = await replaceMapImageFiles(deps.db, map.id, files);
  const unused = replaced ? [replaced.previous?.static.key, replaced.previous?.thumbnail.key] : [files.static.key, files.thumbnail.key];
  await Promise.all(unused.filter((key): key is string => !!key).map((key) => deps.blobs.delete(key)));
  return replaced ? { rendered: true, renderedAt: files.renderedAt } : { rendered: false, reason: 'map_gone' };
}
