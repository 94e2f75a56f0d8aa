// A commercial basemap under a static image: the view's XYZ tiles (tileGrid.ts) fetched with the
// owner's provider key through the on-disk cache, the owner's own copies (tileFetch.ts, tileCache.ts), and drawn at their
// places; a missing tile stays blank. A key the provider refuses, or a provider that does not
// answer, becomes an AppError the API can show.
import { loadImage, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import type { Basemap } from '../basemaps.js';
import { AppError } from '../errors.js';
import { PROVIDER_KIND_LABELS } from '../providerKeys.js';
import type { View } from './mercator.js';
import type { BackgroundPainter } from './renderMap.js';
import type { TileCache, TileOwner } from './tileCache.js';
import { fetchTiles, TileAddressRefusedError, TileKeyRefusedError, TileProviderUnreachableError, type XyzBasemap } from './tileFetch.js';
import { tileGrid } from './tileGrid.js';

export interface TileSettings {
  cache: TileCache;
  timeoutMs: number;
  /** Tests: a fetch that reaches a local tile server instead of the provider. */
  fetch?: typeof globalThis.fetch;
  /** Tests: the basemap's URL template replaced (a local tile server). */
  urlOverride?: string;
  /** Tile servers at private, loopback and link-local addresses may be fetched from (BASEMAPS_ALLOW_PRIVATE). */
  allowPrivateAddresses?: boolean;
}

/** fetchTiles' options of these settings. */
export const fetchOptionsOf = (settings: TileSettings) => ({
  timeoutMs: settings.timeoutMs,
  cache: settings.cache,
  ...(settings.fetch ? { fetch: settings.fetch } : {}),
  ...(settings.allowPrivateAddresses ? { allowPrivateAddresses: true } : {}),
});

const explained = (basemap: Basemap, error: unknown): unknown => {
  if (error instanceof TileKeyRefusedError && basemap.providerKind) {
    return new AppError(
      'provider_key_refused',
      `The provider of the basemap "${basemap.name}" refused the owner's ${PROVIDER_KIND_LABELS[basemap.providerKind]} key (HTTP ${error.status}); ` +
        'check the key under Settings → Map provider keys, or move the map to a built-in basemap.',
    );
  }
  if (error instanceof TileAddressRefusedError) {
    return new AppError(
      'basemap_address_refused',
      `The basemap "${basemap.name}" is served from ${error.host}, a private network address; the service fetches tiles only from public addresses ` +
        '(its operator can allow private ones with BASEMAPS_ALLOW_PRIVATE=true).',
    );
  }
  if (error instanceof TileProviderUnreachableError) {
    return new AppError('basemap_unavailable', `The tiles of the basemap "${basemap.name}" could not be fetched in time; please refresh the image later.`);
  }
  return error;
};

/** Paints `basemap` (an XYZ one) with tiles fetched for `owner` (the map's owner, with the key its map is drawn with). */
export function xyzPainter(basemap: Basemap, owner: TileOwner, settings: TileSettings): BackgroundPainter {
  if (basemap.drawing.type !== 'xyz') throw new Error(`${basemap.id} is not drawn from XYZ tiles`);
  const drawing = settings.urlOverride ? { ...basemap.drawing, url: settings.urlOverride } : basemap.drawing;
  const source: XyzBasemap = { id: basemap.id, providerKind: basemap.providerKind, drawing };
  return async (ctx: SKRSContext2D, view: View) => {
    const grid = tileGrid(view, drawing);
    let results;
    try {
      results = await fetchTiles(source, owner, grid.tiles, fetchOptionsOf(settings));
    } catch (error) {
      throw explained(basemap, error);
    }
    const images = new Map<string, Image>();
    for (const result of results) {
      if (!result.bytes) continue;
      try {
        images.set(`${result.tile.z}/${result.tile.x}/${result.tile.y}`, await loadImage(result.bytes));
      } catch {
        // A tile that does not decode stays blank, like a missing one.
      }
    }
    for (const placement of grid.placements) {
      const image = images.get(`${placement.tile.z}/${placement.tile.x}/${placement.tile.y}`);
      if (image) ctx.drawImage(image, placement.left, placement.top, placement.width, placement.height);
    }
  };
}

/** The render worker's way to paint commercial basemaps (ActivityDeps.paintTiles). */
export const tilePainting =
  (settings: TileSettings) =>
  (basemap: Basemap, owner: TileOwner): BackgroundPainter =>
    xyzPainter(basemap, owner, settings);
