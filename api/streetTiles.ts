// The street map archive's tiles (BASEMAP_TILES, lib/streetArchive/): GET and HEAD of
//   /basemaps/osm/<identity>/<z>/<x>/<y>.mvt
// answered on Node's request itself, before the Koa app (app.ts hands it every request first). A
// browser at street zoom asks for 30–60 of these per view, and the app's stack every request
// passes — request id and access log line, the rate limiter's bucket, the router — cost three
// times the tile itself: `npm run bench -- basemap` measured the service's /healthz alone at
// 0.24–0.34× nginx's rate. So a tile gets what it needs and no more:
//   - counted in the HTTP metrics (mps_http_requests_total, …_duration_seconds) under its route
//     pattern, but no access log line (a failure to read the archive is logged, as before);
//   - no rate limit: a tile is public, the same for everyone and cheaper to answer than a check
//     of the address's bucket (a PostgreSQL round trip by default); reads of the archive itself
//     are one per tile at a time and recent tiles are kept (lib/streetArchive/), so a flood of
//     requests costs memory copies, not storage reads;
//   - the headers every answer carries (X-Content-Type-Options, HSTS over HTTPS) and CORS.
// The tile: Mapbox vector tile bytes as stored — gzip passed through to a client that accepts it
// (no inflating and deflating again), inflated for one that does not, with an ETag per encoding
// and `Vary: Accept-Encoding`; named by the archive's identity so a new archive never mixes with
// tiles of the old one kept by browsers and proxies. A place inside zoom 0–maxzoom the archive has
// no tile for is a 204 (MapLibre draws nothing there and keeps it cached like a tile). An archive
// that cannot be read (storage down, a damaged part) is a 503 `basemap_unavailable`, logged, never
// cached. Anything else — another archive's identity, past maxzoom (MapLibre over-zooms maxzoom's
// tiles), outside the grid, another method — goes on to the app, whose answer is basemap_not_found.
import type http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import accepts from 'accepts';
import { httpDuration, httpRequests, secondsSince } from '../lib/observability/metrics.js';
import type { StreetArchive } from '../lib/streetArchive/index.js';
import { matches } from './fileAnswer.js';
import { logInternalError } from './internalErrorLog.js';
import { COMMON_HEADERS } from './server.js';
import { STRICT_TRANSPORT_SECURITY } from './strictTransport.js';

const gunzip = promisify(zlib.gunzip);

export const STREET_TILE_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';
export const STREET_TILE_ROUTE = '/basemaps/osm/:identity/:z/:x/:y.mvt';
const MVT = 'application/vnd.mapbox-vector-tile';
/** The path, a query string allowed (and ignored); a zoom, column or row has at most 8 digits (zoom 26). */
const STREET_TILE_PATH = /^\/basemaps\/osm\/([^/?]+)\/(\d{1,8})\/(\d{1,8})\/(\d{1,8})\.mvt(?:\?|$)/;
const UNAVAILABLE = JSON.stringify({ error: 'The street map tiles cannot be read right now; please try again shortly.', error_code: 'basemap_unavailable' });

/** Answers a request for a street tile and says true, or says false and leaves it to the app. */
export type StreetTileHandler = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export interface StreetTileOptions {
  /** The service's PUBLIC_URL is https: HSTS goes with answers to requests that came over HTTPS. */
  httpsService: boolean;
  /** TRUST_PROXY is set: X-Forwarded-Proto says how the client came (as Koa's ctx.secure reads it). */
  trustProxy: boolean;
}

export function streetTileHandler(streets: StreetArchive, options: StreetTileOptions): StreetTileHandler {
  const gzipStored = streets.info.tileCompression === 'gzip';
  const cameOverHttps = (req: http.IncomingMessage): boolean =>
    (req.socket as { encrypted?: boolean }).encrypted === true ||
    (options.trustProxy && String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim() === 'https');

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const match = STREET_TILE_PATH.exec(req.url ?? '');
    if (!match || match[1] !== streets.info.identity) return false;
    const [z, x, y] = [Number(match[2]), Number(match[3]), Number(match[4])];
    if (!streets.covers(z, x, y)) return false;

    const start = process.hrtime.bigint();
    res.once('close', () => {
      const operation = STREET_TILE_ROUTE;
      const errorCode = res.statusCode === 503 ? 'basemap_unavailable' : '';
      httpRequests.inc({ method: req.method!, operation, status: String(res.statusCode), error_code: errorCode });
      httpDuration.observe({ operation, error_code: errorCode }, secondsSince(start));
    });
    res.setHeader('X-Content-Type-Options', COMMON_HEADERS['X-Content-Type-Options']);
    if (options.httpsService && cameOverHttps(req)) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    res.setHeader('Access-Control-Allow-Origin', '*');
    const sendGzip = gzipStored && accepts(req).encoding(['gzip', 'identity']) === 'gzip';
    const etag = `"osm-${streets.info.identity}-${z}-${x}-${y}${sendGzip ? '-gzip' : ''}"`;
    if (gzipStored) res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', etag);

    // A revalidation needs no tile: the identity names the archive's content.
    if (matches(String(req.headers['if-none-match'] ?? ''), etag)) {
      res.writeHead(304, { 'Cache-Control': STREET_TILE_CACHE }).end();
      return true;
    }
    void answerTile(streets, req, res, [z, x, y], gzipStored && !sendGzip, sendGzip);
    return true;
  };
}

async function answerTile(streets: StreetArchive, req: http.IncomingMessage, res: http.ServerResponse, [z, x, y]: number[], inflate: boolean, sendGzip: boolean): Promise<void> {
  let bytes: Uint8Array | undefined;
  try {
    const tile = await streets.storedTile(z!, x!, y!);
    if (tile.status === 'tile') bytes = inflate ? await gunzip(tile.bytes) : tile.bytes;
  } catch (error) {
    logInternalError(`The street map archive could not be read for tile ${z}/${x}/${y}`, error);
    res.removeHeader('ETag');
    res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '30', 'Content-Length': Buffer.byteLength(UNAVAILABLE) });
    res.end(req.method === 'HEAD' ? undefined : UNAVAILABLE);
    return;
  }
  if (!bytes) {
    res.writeHead(204, { 'Cache-Control': STREET_TILE_CACHE }).end();
    return;
  }
  res.writeHead(200, {
    'Content-Type': MVT,
    'Content-Length': bytes.byteLength,
    'Cache-Control': STREET_TILE_CACHE,
    ...(sendGzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
