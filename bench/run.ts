// `npm run bench`: every benchmark, each running its reference beside our code in the same run.
// Results are printed and written to bench/out/results.json. `npm run bench -- imports` (or
// `latency`, `big`, `images`, `render`, `editor`, `versions`, `xlsx`, `blobs`, `limits`, `load`, `accounts`, `places`, `basemap`, `basemap-page`, `description`, `features`, `ogc`, `webhooks`) runs one of them.
import fs from 'node:fs';
import { benchAccountPages } from './accountPages.js';
import { benchApiLatency } from './apiLatency.js';
import { benchBasemapServing } from './basemap.js';
import { benchStreetMapPage } from './streetMapPage.js';
import { benchBigUpload } from './bigUpload.js';
import { benchBlobStores } from './blobStores.js';
import { benchDescription } from './description.js';
import { benchEditor } from './editor.js';
import { benchFeaturePages } from './featurePages.js';
import { benchImageUpload } from './imageUpload.js';
import { benchImports } from './imports.js';
import { benchMixedLoad } from './mixedLoad.js';
import { benchOgcRead } from './ogcRead.js';
import { benchPlaces } from './places.js';
import { benchRateLimiter } from './rateLimiter.js';
import { benchRender } from './render.js';
import { benchVersions } from './versions.js';
import { benchWebhooks } from './webhooks.js';
import { benchXlsxDownload } from './xlsxDownload.js';
import { benchStoredFileSweep } from './storedFileSweep.js';

const only = process.argv[2];
const results: Record<string, unknown> = {};
if (!only || only === 'latency') {
  console.log('API latency (embedded service, PostgreSQL): uploads, map/get against psql, appends …');
  results.apiLatency = await benchApiLatency();
  console.log(JSON.stringify(results.apiLatency, null, 2));
}
if (!only || only === 'big') {
  console.log('The largest map the limits allow (14.5 MB KML, 37,807 features) uploaded with its static image while 20 clients send requests …');
  const big = await benchBigUpload();
  results.bigUpload = big;
  for (const result of big) {
    console.log(`${result.database}: the 20 clients alone ${JSON.stringify(result.clients_alone)}; client errors ${result.errors}`);
    console.table(result.runs);
  }
}
if (!only || only === 'imports') {
  console.log('Imports of 15 MB files against ogr2ogr (median of 3 runs each) …');
  const rows = await benchImports();
  results.imports = rows;
  console.table(rows);
}
if (!only || only === 'images') {
  console.log('image/upload of 12-megapixel photos against vipsthumbnail (median of 5 runs each) …');
  const images = await benchImageUpload();
  results.images = images;
  console.log(images.vipsthumbnail);
  console.table(images.rows);
  console.log(JSON.stringify(images.details, null, 2));
}
if (!only || only === 'render') {
  console.log('Static map images against staticmaps (1,000 features, median of 5 each), then map/refresh_image end to end …');
  const render = await benchRender();
  results.render = render;
  if (render.comparison) {
    console.log(`staticmaps ${render.comparison.staticmaps}`);
    console.table(render.comparison.rows);
    console.log(JSON.stringify(render.comparison.details, null, 2));
  }
  if (render.streets) {
    console.log('A 1,000-feature map over Helsinki at street zoom, with streets:');
    console.table(render.streets.rows);
  }
  if (render.refresh) {
    console.table(render.refresh.rows);
    console.log(JSON.stringify(render.refresh.pieces, null, 2));
  }
}
if (!only || only === 'editor') {
  console.log('The web map and its editor in Chromium: drawn with 1,000 / 10,000 / 100,000 points, pan frames, saving one moved point …');
  const editor = await benchEditor();
  results.editor = editor;
  console.table(editor.drawn);
  console.table(editor.pan);
  console.table([editor.save]);
}
if (!only || only === 'ogc') {
  console.log('A 200,000-feature map read whole through OGC API – Features (ogr2ogr over OAPIF, next links) against map/get …');
  const ogc = await benchOgcRead();
  results.ogcRead = ogc;
  console.table(ogc.rows);
  console.log(`/collections with extents: ${ogc.collectionsMs} ms`);
}
if (!only || only === 'features') {
  console.log('The per-feature API on a 200,000-feature map against a 1,000-feature one: pages, bbox, group, feature/get, map/changes …');
  results.featurePages = await benchFeaturePages();
  console.log(JSON.stringify(results.featurePages, null, 2));
}
if (!only || only === 'webhooks') {
  console.log('Webhook delivery latency: feature/save → the receiver\'s 200, over HTTP and HTTPS, one save at a time and 20 at once …');
  const webhooks = await benchWebhooks();
  results.webhooks = webhooks;
  console.table(webhooks.rows);
}
if (!only || only === 'versions') {
  console.log('Map versions on a 100,000-point map: a save keeping its version as changes, against a snapshot per save …');
  results.versions = await benchVersions();
  console.log(JSON.stringify(results.versions, null, 2));
}
if (!only || only === 'xlsx') {
  console.log('The XLSX download of 50,000 points against the CSV download and other uses of exceljs (median of 3 each) …');
  results.xlsxDownload = benchXlsxDownload();
  console.table(results.xlsxDownload);
}
if (!only || only === 'blobs') {
  console.log('A 50 MB upload streamed into the local directory and into S3 (moto), read back (median of 3 each) …');
  results.blobStores = await benchBlobStores();
  console.table(results.blobStores);
}
if (!only || only === 'limits') {
  console.log('The rate limiter per request: a bucket take in memory, PostgreSQL and PGlite; map/list with limits off, in memory, in PostgreSQL …');
  results.rateLimiter = await benchRateLimiter();
  console.log(JSON.stringify(results.rateLimiter, null, 2));
}
if (!only || only === 'sweep') {
  console.log('The hourly sweep of stored files: looking up 1,000 keys among 420,000 stored files, with and without their indexes …');
  results.storedFileSweep = await benchStoredFileSweep();
  console.log(JSON.stringify(results.storedFileSweep, null, 2));
}
if (!only || only === 'basemap') {
  console.log(`Street map tiles: the fixture's 19 tiles by 8 clients for ${process.env.BASEMAP_BENCH_SECONDS ?? 20} s each, through the service (a file; S3 on moto, warm and cold) against nginx serving them as files …`);
  const basemap = await benchBasemapServing();
  console.log(basemap.machine);
  console.table(basemap.rows);
  console.log('Street map in Chromium: navigation → a 1,000-point map over Helsinki drawn with streets at zoom 15 …');
  const page = await benchStreetMapPage();
  results.basemap = { serving: basemap, page };
  console.table([page]);
}
if (only === 'basemap-page') {
  console.log('Street map in Chromium: navigation → a 1,000-point map over Helsinki drawn with streets at zoom 15 …');
  results.basemapPage = await benchStreetMapPage();
  console.table([results.basemapPage]);
}
if (!only || only === 'load') {
  console.log('Mixed load of 50 clients on the scaled-out shape (with import throughput on one and two maps workers) and on the embedded default …');
  results.mixedLoad = await benchMixedLoad();
}
if (!only || only === 'accounts') {
  console.log('The account forms answering for an address or name with an account and without (/reset, /signup, /login) …');
  results.accountPages = await benchAccountPages();
  console.log(JSON.stringify(results.accountPages, null, 2));
}
if (!only || only === 'places') {
  console.log('Place search: the index made in its thread (the event loop watched), then searches for the worst queries, 2,000 each …');
  const places = await benchPlaces();
  results.places = places;
  console.log(JSON.stringify({ build: places.build, onTheEventLoop: places.onTheEventLoop }, null, 2));
  console.table(places.searches);
}
if (!only || only === 'description') {
  console.log(`A map page with the worst descriptions the API accepts, with ${20} other clients' requests (/healthz, a small map's page) timed meanwhile; the time to save each …`);
  results.description = await benchDescription();
  console.table(results.description);
}
fs.mkdirSync('bench/out', { recursive: true });
fs.writeFileSync('bench/out/results.json', JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
// A handle left open (seen once after `load`: the run had finished and written its results) would
// keep the process from ending: after 10 s, name what is still open and end it.
setTimeout(() => {
  console.log(`Still open after the run: ${process.getActiveResourcesInfo().join(', ')}; exiting.`);
  process.exit(0);
}, 10_000).unref();
