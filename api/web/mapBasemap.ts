// A map's basemap in the browser (lib/browserBasemap.ts decides which): a built-in one's style
// under /basemaps/, or, for a commercial basemap shown with a key, the map's own style and its
// provider's tiles through the service (the key is added here and never reaches the browser;
// tiles come from the same on-disk cache as the renderer's); an operator's basemap that needs no
// key (BASEMAPS_EXTRA) the same way, without one:
//   GET /maps/{id}/basemap/style.json
//   GET /maps/{id}/basemap/{z}/{x}/{y}
// for whoever may see the map (an unlisted map's `{id}~{link key}`, as its embed names it). Page
// and embed views of a map on a commercial basemap are counted here (countMapView), and the
// tiles served with the service's key (lib/tileCounts.ts, in batches); either may start the
// heavy-traffic limit. Tiles are cached per
// map owner and key (lib/render/tileCache.ts).
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../../db/connection.js';
import { countMapTiles, countMapView, findClassicUntil, startClassicLimit } from '../../db/mapViews.js';
import { findProviderKey } from '../../db/providerKeys.js';
import { visibleToAnyone } from '../../lib/access.js';
import { basemapById } from '../../lib/basemaps.js';
import { rasterBasemapStyle } from '../../lib/basemapStyles.js';
import { chooseBrowserBasemap, limitStartedBy, type DayTraffic, type Fallback } from '../../lib/browserBasemap.js';
import type { Config } from '../../lib/config.js';
import { mapRef } from '../../lib/mapSummary.js';
import type { MapRecord } from '../../lib/maps.js';
import { sniffFormat, sniffOther } from '../../lib/media/sniff.js';
import { fetchTiles, TileAddressRefusedError, TileKeyRefusedError, TileProviderUnreachableError } from '../../lib/render/tileFetch.js';
import { fetchOptionsOf, type TileSettings } from '../../lib/render/xyzBackground.js';
import { TileCounts } from '../../lib/tileCounts.js';
import { notFound } from '../fileAnswer.js';
import { logInternalError } from '../internalErrorLog.js';
import { findSeenMapByRef } from '../mapAddress.js';
import { viewerIdOf } from '../viewerId.js';

export interface MapBasemapDeps {
  db: Db;
  config: Pick<Config, 'serviceProviderKeys' | 'heavyTrafficViews' | 'publicUrl'>;
  tiles: TileSettings;
}

type MapOfBasemap = Pick<MapRecord, 'id' | 'ownerId' | 'basemap' | 'linkKey'>;

/**
 * What the browser shows the map on (lib/browserBasemap.ts), and the key its tiles are fetched
 * with when it is a commercial basemap: its owner's (read once here), else the service's.
 */
async function decide(deps: MapBasemapDeps, map: MapOfBasemap, view: { today: DayTraffic; classicUntil: Date | null } | undefined) {
  const kind = basemapById(map.basemap)?.providerKind ?? null;
  const ownerKey = kind ? await findProviderKey(deps.db, map.ownerId, kind) : undefined;
  const serviceKey = kind ? deps.config.serviceProviderKeys[kind] : undefined;
  const choice = chooseBrowserBasemap({
    basemapId: map.basemap,
    ownerHasKey: ownerKey !== undefined,
    serviceHasKey: serviceKey !== undefined,
    classicUntil: view ? view.classicUntil : kind ? await findClassicUntil(deps.db, map.id) : null,
    ...(view ? { today: view.today } : {}),
    limit: deps.config.heavyTrafficViews,
    now: new Date(),
  });
  const key = choice.shown.kind === 'tiles' ? (choice.shown.keyOf === 'owner' ? ownerKey : choice.shown.keyOf === 'service' ? serviceKey : '') : undefined;
  return { ...choice, key };
}

/**
 * Counts a view of the map's page or embed and answers the style its map draws over, and why it
 * is not the map's own basemap when it is not (for the owner's notice).
 */
export async function viewedMapBasemap(deps: MapBasemapDeps, map: MapOfBasemap): Promise<{ styleUrl: string; fallback?: Fallback }> {
  // Only a map on a commercial basemap has a heavy-traffic limit: the others' views are not
  // counted (a write per view made every view of a busy map wait on the one before it).
  const view = basemapById(map.basemap)?.providerKind ? await countMapView(deps.db, map.id) : undefined;
  const { shown, startLimitUntil } = await decide(deps, map, view);
  if (startLimitUntil) await startClassicLimit(deps.db, map.id, startLimitUntil);
  if (shown.kind === 'tiles') return { styleUrl: `/maps/${mapRef(map)}/basemap/style.json` };
  return { styleUrl: `/basemaps/${shown.id}/style.json`, ...(shown.fallback ? { fallback: shown.fallback } : {}) };
}

const TILE_TYPES: Partial<Record<string, string>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** Writes a batch of tile counts, and starts the limit of each map whose day's traffic now passes it. */
const tileCountsOf = (deps: MapBasemapDeps) =>
  new TileCounts({
    async write(tiles) {
      const now = new Date();
      for (const { mapId, today, classicUntil } of await countMapTiles(deps.db, tiles)) {
        const until = limitStartedBy(today, classicUntil, deps.config.heavyTrafficViews, now);
        if (until) await startClassicLimit(deps.db, mapId, until);
      }
    },
    onError: (error) => logInternalError('Basemap tile counts could not be written', error),
  });

export function mountMapBasemap(router: Router, deps: MapBasemapDeps): void {
  const viewerId = viewerIdOf(deps.db);
  const tileCounts = tileCountsOf(deps);

  /** The map when the caller may see it and it is shown on its commercial basemap now, with the key and whose it is; else a 404 has been answered. */
  async function shownWithTiles(ctx: Context) {
    const found = await findSeenMapByRef(deps.db, ctx.params.id, await viewerId(ctx));
    if (!found) return notFound(ctx, 'map_not_found', 'There is no such map, or you may not see it.');
    const { shown, key } = await decide(deps, found.map, undefined);
    const tiles = shown.kind === 'tiles' ? shown : undefined;
    const basemap = tiles?.basemap;
    if (!tiles || key === undefined || basemap?.drawing.type !== 'xyz') {
      return notFound(ctx, 'basemap_not_found', 'This map is not shown on a commercial basemap at the moment; reload its page.');
    }
    ctx.set('Cache-Control', visibleToAnyone(found.map) ? 'public, max-age=3600' : 'private, max-age=3600');
    const drawing = deps.tiles.urlOverride ? { ...basemap.drawing, url: deps.tiles.urlOverride } : basemap.drawing;
    // Tiles that need no key are the same for every map: cached once for all (account 0).
    const owner = { accountId: tiles.keyOf === 'none' ? 0 : found.map.ownerId, key };
    return { map: found.map, basemap, source: { id: basemap.id, providerKind: basemap.providerKind, drawing }, owner, keyOf: tiles.keyOf };
  }

  router.get('/maps/:id/basemap/style.json', async (ctx) => {
    const shown = await shownWithTiles(ctx);
    if (!shown) return;
    ctx.body = rasterBasemapStyle(shown.basemap, `${deps.config.publicUrl}/maps/${mapRef(shown.map)}/basemap/{z}/{x}/{y}`);
  });

  router.get('/maps/:id/basemap/:z/:x/:y', async (ctx) => {
    const [z, x, y] = [ctx.params.z, ctx.params.x, ctx.params.y].map((part) => (/^\d{1,9}$/.test(part ?? '') ? Number(part) : NaN)) as [number, number, number];
    const shown = await shownWithTiles(ctx);
    if (!shown) return;
    const { map, basemap, source, owner, keyOf } = shown;
    const inRange = [z, x, y].every(Number.isInteger) && z <= source.drawing.maxZoom && x < 2 ** z && y < 2 ** z;
    if (!inRange) return notFound(ctx, 'basemap_not_found', `There is no tile ${ctx.params.z}/${ctx.params.x}/${ctx.params.y} in this basemap.`);
    // Traffic on the service's key, cached or not: toward the map's heavy-traffic limit.
    if (keyOf === 'service') await tileCounts.count(map.id);
    let result;
    try {
      [result] = await fetchTiles(source, owner, [{ z, x, y }], fetchOptionsOf(deps.tiles));
    } catch (error) {
      ctx.set('Cache-Control', 'no-store');
      if (error instanceof TileKeyRefusedError) {
        ctx.status = 502;
        ctx.body = { error: `The provider of the basemap "${basemap.name}" refused the key (HTTP ${error.status}).`, error_code: 'provider_key_refused' };
        return;
      }
      if (error instanceof TileAddressRefusedError) {
        ctx.status = 502;
        ctx.body = { error: `The tile server of the basemap "${basemap.name}" is at a private network address, which this service does not fetch from.`, error_code: 'basemap_address_refused' };
        return;
      }
      if (error instanceof TileProviderUnreachableError) {
        ctx.status = 504;
        ctx.body = { error: `The tiles of the basemap "${basemap.name}" could not be fetched in time.`, error_code: 'basemap_unavailable' };
        return;
      }
      throw error;
    }
    if (!result?.bytes) return notFound(ctx, 'basemap_not_found', `The provider has no tile ${z}/${x}/${y} of this basemap.`);
    // fetchTiles keeps PNG, JPEG and WebP only.
    ctx.type = TILE_TYPES[sniffFormat(result.bytes) ?? sniffOther(result.bytes) ?? ''] ?? 'application/octet-stream';
    ctx.body = result.bytes;
  });
}
