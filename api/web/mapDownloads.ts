// A map's downloads, for whoever may see the map (an API client by its key, a browser by its
// session), as attachments named after its short name:
//   {map url}/download.geojson   the document as map/get has it (full fidelity)
//   {map url}/download.csv       its points in the table import's columns (lib/formats/export/table.ts)
//   {map url}/download.xlsx      the same table as an Excel workbook (export/xlsx.ts)
//   {map url}/download.kml       everything, groups as folders, colours as styles (export/kml.ts)
//   {map url}/download.gpx       points as waypoints, lines as tracks (export/gpx.ts)
// X-Shapes-Left-Out says how many items the format cannot hold (CSV, XLSX: lines and areas; GPX: areas).
// An address from before a rename redirects, as the page does.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../../db/connection.js';
import { openMapDocument } from '../../db/mapDocument.js';
import { visibleToAnyone } from '../../lib/access.js';
import { gpxOfMap } from '../../lib/formats/export/gpx.js';
import { kmlOfMap } from '../../lib/formats/export/kml.js';
import { csvOfTable, pointTable } from '../../lib/formats/export/table.js';
import { xlsxOfTable } from '../../lib/formats/export/xlsx.js';
import type { MapFeature, MapGroup } from '../../lib/geojson/model.js';
import { notFound } from '../fileAnswer.js';
import { lookUpMapAddress, redirectToMoved } from '../mapAddress.js';
import { chargeMapRead } from '../rateCharges.js';
import { viewerIdOf } from '../viewerId.js';

async function documentText(db: Db, mapId: number): Promise<string | undefined> {
  const read = await openMapDocument(db, mapId);
  if (!read) return undefined;
  const pieces: string[] = [];
  try {
    for await (const piece of read.text) pieces.push(typeof piece === 'string' ? piece : piece.toString('utf8'));
  } finally {
    await read.close();
  }
  return pieces.join('');
}

export function mountMapDownloads(router: Router, db: Db, publicUrl: string): void {
  const viewerId = viewerIdOf(db);

  const download = (extension: 'geojson' | 'csv' | 'xlsx' | 'kml' | 'gpx') => async (ctx: Context) => {
    const address = await lookUpMapAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', await viewerId(ctx));
    if (address.kind === 'moved') return redirectToMoved(ctx, address.path, `/download.${extension}`);
    // A large map costs more from the rate limits, as map/get does (refused before it is read).
    if (address.kind === 'map') await chargeMapRead(ctx, address.found.map.contentBytes);
    const text = address.kind === 'map' ? await documentText(db, address.found.map.id) : undefined;
    if (address.kind !== 'map' || text === undefined) return notFound(ctx, 'map_not_found', 'There is no such map, or you may not see it.');
    const { map } = address.found;
    ctx.set('Cache-Control', visibleToAnyone(map) ? 'public, no-cache' : 'private, no-store');
    ctx.attachment(`${map.shortName}.${extension}`);
    if (extension === 'geojson') {
      ctx.type = 'application/geo+json';
      ctx.body = text;
      return;
    }
    const document = JSON.parse(text) as { features: MapFeature[]; groups?: MapGroup[] };
    if (extension === 'kml') {
      ctx.set('X-Shapes-Left-Out', '0');
      ctx.type = 'application/vnd.google-earth.kml+xml';
      ctx.body = kmlOfMap(map, document.features, document.groups ?? []);
      return;
    }
    if (extension === 'gpx') {
      const gpx = gpxOfMap(map, document.features);
      ctx.set('X-Shapes-Left-Out', String(gpx.leftOut));
      ctx.type = 'application/gpx+xml';
      ctx.body = gpx.text;
      return;
    }
    const table = pointTable(document.features, document.groups ?? [], publicUrl);
    ctx.set('X-Shapes-Left-Out', String(table.shapesLeftOut));
    if (extension === 'xlsx') {
      ctx.type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
      ctx.body = await xlsxOfTable(table);
      return;
    }
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = csvOfTable(table);
  };

  router.get('/:owner/:shortName/download.geojson', download('geojson'));
  router.get('/:owner/:shortName/download.csv', download('csv'));
  router.get('/:owner/:shortName/download.xlsx', download('xlsx'));
  router.get('/:owner/:shortName/download.kml', download('kml'));
  router.get('/:owner/:shortName/download.gpx', download('gpx'));
}
