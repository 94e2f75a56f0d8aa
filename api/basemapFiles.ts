// The built-in basemaps for the browser, public (no key): GET and HEAD of
//   /basemaps/<id>/style.json            the MapLibre style of `classic`, `light` or `dark`
//   /basemaps/tiles/<z>/<x>/<y>.pbf      the vector tiles all three share (zoom 0–6)
//   /basemaps/fonts/noto-sans.css        @font-face rules of the labels' font
//   /basemaps/fonts/<file>.woff2         the font files those rules name, and no other file
//   /basemaps/osm/<identity>/<z>/<x>/<y>.mvt   the street map archive's tiles (BASEMAP_TILES; below)
// Tiles and fonts change only with an upgrade of the data or packages they are made from: a
// day's caching, with an ETag naming those versions. A style names the service's public URL and
// the tiles' version, so it is revalidated every time (`no-cache`). Anything else under
// /basemaps/ is a JSON 404 (`basemap_not_found`), before the map routes could read `basemaps`
// as an owner's name. Every answer allows any origin: the files are public and carry no
// credentials, and a page on another site may show a map with them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { BASEMAP_FONTS_VERSION, basemapFontCss, basemapFontFile, FONT_CSS_NAME } from '../lib/basemapFonts.js';
import { basemapStyle } from '../lib/basemapStyles.js';
import { BASEMAP_TILES_VERSION, basemapTile, isBasemapTile } from '../lib/basemapTiles/index.js';
import type { StreetArchive } from '../lib/streetArchive/index.js';
import { answerFile, matches, notFound } from './fileAnswer.js';
import { logInternalError } from './internalErrorLog.js';
import { requestContextOf } from './requestContext.js';

const gunzip = promisify(zlib.gunzip);

const FOR_A_DAY = 'public, max-age=86400';
const TILE_ETAG = `"tiles-${BASEMAP_TILES_VERSION}"`;
const FONTS_ETAG = `"fonts-${BASEMAP_FONTS_VERSION}"`;
/** A zoom, column or row: digits only (Number() would also take '', '0x1f' or '1e1'). */
const TILE_NUMBER = /^\d{1,3}$/;

function missing(ctx: Context): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  notFound(ctx, 'basemap_not_found', 'There is no built-in basemap file at this URL.');
}

function answerBuffer(ctx: Context, etag: string, cacheControl: string, contentType: string, bytes: Buffer): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  answerFile(ctx, { etag, cacheControl, perCaller: false, contentType, size: bytes.length, open: () => bytes });
}

/** Each built-in style as JSON text with its ETag, made at its first request. */
function serveStyle(publicUrl: string) {
  const made = new Map<string, { json: Buffer; etag: string }>();
  return (ctx: Context) => {
    const id = ctx.params.id ?? '';
    let style = made.get(id);
    if (!style) {
      const spec = basemapStyle(id, publicUrl);
      if (!spec) return missing(ctx);
      const json = Buffer.from(JSON.stringify(spec));
      style = { json, etag: `"style-${createHash('sha256').update(json).digest('base64url').slice(0, 16)}"` };
      made.set(id, style);
    }
    answerBuffer(ctx, style.etag, 'no-cache', 'application/json', style.json);
  };
}

async function serveTile(ctx: Context): Promise<void> {
  const [z, x, y] = [ctx.params.z, ctx.params.x, ctx.params.y].map((part) => (TILE_NUMBER.test(part ?? '') ? Number(part) : NaN));
  if (!isBasemapTile(z!, x!, y!)) return missing(ctx);
  // A revalidation needs no tile: the ETag names the versions, not the bytes.
  if (matches(ctx.get('if-none-match'), TILE_ETAG)) {
    return answerBuffer(ctx, TILE_ETAG, FOR_A_DAY, 'application/x-protobuf', Buffer.alloc(0));
  }
  const tile = (await basemapTile(z!, x!, y!))!;
  // Open ocean is a tile of no bytes: MapLibre (4.0 and later) takes a 200 with no body as an empty tile.
  answerBuffer(ctx, TILE_ETAG, FOR_A_DAY, 'application/x-protobuf', tile);
}

// The street map archive's tiles (lib/streetArchive/), named by the archive's identity so a new
// archive never mixes with tiles of the old one kept by browsers and proxies (an old identity is a
// 404): Mapbox vector tiles as stored — gzip passed through to a client that accepts it (no
// inflating and deflating again), inflated for one that does not, with an ETag per encoding and
// `Vary: Accept-Encoding`. A place inside zoom 0–maxzoom the archive has no tile for is a 204
// (MapLibre draws nothing there and keeps it cached like a tile); past maxzoom, 404 (MapLibre
// over-zooms maxzoom's tiles). An archive that cannot be read (storage down, a damaged part) is
// a 503 `basemap_unavailable`, logged, never cached.
const STREET_TILE_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';
const MVT = 'application/vnd.mapbox-vector-tile';
/** A zoom, column or row of the archive's (zoom 26 at most: columns of 8 digits). */
const STREET_TILE_NUMBER = /^\d{1,8}$/;

function serveStreetTile(streets: StreetArchive | undefined) {
  return async (ctx: Context): Promise<void> => {
    const [z, x, y] = [ctx.params.z, ctx.params.x, ctx.params.y].map((part) => (STREET_TILE_NUMBER.test(part ?? '') ? Number(part) : NaN));
    if (!streets || ctx.params.identity !== streets.info.identity || !streets.covers(z!, x!, y!)) return missing(ctx);
    const stored = streets.info.tileCompression;
    const sendGzip = stored === 'gzip' && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    const etag = `"osm-${streets.info.identity}-${z}-${x}-${y}${sendGzip ? '-gzip' : ''}"`;
    if (stored === 'gzip') ctx.set('Vary', 'Accept-Encoding');
    // A revalidation needs no tile: the identity names the archive's content.
    if (matches(ctx.get('if-none-match'), etag)) return answerBuffer(ctx, etag, STREET_TILE_CACHE, MVT, Buffer.alloc(0));
    let bytes: Uint8Array | undefined;
    try {
      const tile = await streets.storedTile(z!, x!, y!);
      if (tile.status === 'tile') bytes = stored === 'gzip' && !sendGzip ? await gunzip(tile.bytes) : tile.bytes;
    } catch (error) {
      logInternalError(`The street map archive could not be read for tile ${z}/${x}/${y}`, error, requestContextOf(ctx)?.requestId);
      ctx.status = 503;
      ctx.set({ 'Cache-Control': 'no-store', 'Retry-After': '30', 'Access-Control-Allow-Origin': '*' });
      ctx.body = { error: 'The street map tiles cannot be read right now; please try again shortly.', error_code: 'basemap_unavailable' };
      return;
    }
    if (!bytes) {
      ctx.set({ ETag: etag, 'Cache-Control': STREET_TILE_CACHE, 'Access-Control-Allow-Origin': '*' });
      ctx.status = 204;
      return;
    }
    if (sendGzip) ctx.set('Content-Encoding', 'gzip');
    answerBuffer(ctx, etag, STREET_TILE_CACHE, MVT, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };
}

const fontFiles = new Map<string, Buffer>();

function serveFontFile(ctx: Context): void {
  const name = ctx.params.file ?? '';
  // Only the allow-listed names reach the disk: '../package.json' (sent as ..%2F) is not one.
  const file = basemapFontFile(name);
  if (!file) return missing(ctx);
  let bytes = fontFiles.get(name);
  if (!bytes) {
    bytes = fs.readFileSync(file);
    fontFiles.set(name, bytes);
  }
  answerBuffer(ctx, FONTS_ETAG, FOR_A_DAY, 'font/woff2', bytes);
}

function serveFontCss(ctx: Context): void {
  answerBuffer(ctx, FONTS_ETAG, FOR_A_DAY, 'text/css; charset=utf-8', Buffer.from(basemapFontCss()));
}

/** `streets`: the street map archive (BASEMAP_TILES), opened at start; undefined without one. */
export function mountBasemapFiles(router: Router, publicUrl: string, streets?: StreetArchive): void {
  router.get(`/basemaps/fonts/${FONT_CSS_NAME}`, serveFontCss);
  router.get('/basemaps/fonts/:file', serveFontFile);
  router.get('/basemaps/tiles/:z/:x/:y.pbf', serveTile);
  router.get('/basemaps/osm/:identity/:z/:x/:y.mvt', serveStreetTile(streets));
  router.get('/basemaps/:id/style.json', serveStyle(publicUrl));
  router.get('/basemaps/{*rest}', missing);
}
