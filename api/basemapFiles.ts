// The built-in basemaps for the browser, public (no key): GET and HEAD of
//   /basemaps/<id>/style.json            the MapLibre style of `classic`, `light` or `dark`
//   /basemaps/tiles/<z>/<x>/<y>.pbf      the vector tiles all three share (zoom 0–6)
//   /basemaps/fonts/noto-sans.css        @font-face rules of the labels' font
//   /basemaps/fonts/<file>.woff2         the font files those rules name, and no other file
// (The street map archive's tiles, /basemaps/osm/<identity>/<z>/<x>/<y>.mvt, are answered before
// the app: streetTiles.ts. What they leave — another archive, past its zooms — is a 404 here.)
// Tiles and fonts change only with an upgrade of the data or packages they are made from: a
// day's caching, with an ETag naming those versions. A style names the service's public URL and
// the tiles' version, so it is revalidated every time (`no-cache`). Anything else under
// /basemaps/ is a JSON 404 (`basemap_not_found`), before the map routes could read `basemaps`
// as an owner's name. Every answer allows any origin: the files are public and carry no
// credentials, and a page on another site may show a map with them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { BASEMAP_FONTS_VERSION, basemapFontCss, basemapFontFile, FONT_CSS_NAME } from '../lib/basemapFonts.js';
import { basemapStyle } from '../lib/basemapStyles.js';
import { BASEMAP_TILES_VERSION, basemapTile, isBasemapTile } from '../lib/basemapTiles/index.js';
import type { StreetArchive } from '../lib/streetArchive/index.js';
import { answerFile, matches, notFound } from './fileAnswer.js';

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

/** Each built-in style as JSON text with its ETag, made at its first request (with the street map archive's layers when there is one). */
function serveStyle(publicUrl: string, streets?: StreetArchive) {
  const streetSource = streets ? { tiles: streets.tileUrlTemplate(publicUrl.replace(/\/+$/, '')), maxZoom: streets.info.maxZoom, bounds: streets.info.bounds } : undefined;
  const made = new Map<string, { json: Buffer; etag: string }>();
  return (ctx: Context) => {
    const id = ctx.params.id ?? '';
    let style = made.get(id);
    if (!style) {
      const spec = basemapStyle(id, publicUrl, streetSource);
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
  router.get('/basemaps/:id/style.json', serveStyle(publicUrl, streets));
  router.get('/basemaps/{*rest}', missing);
}
