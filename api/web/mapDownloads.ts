// A map's downloads, for whoever may see the map (an API client by its key, a browser by its
// session), as attachments named after its short name:
//   {map url}/download.geojson   the document as map/get has it (full fidelity)
//   {map url}/download.csv       its points in the table import's columns (lib/formats/export/table.ts)
//   {map url}/download.xlsx      the same table as an Excel workbook (export/xlsx.ts)
//   {map url}/download.kml       everything, groups as folders, colours as styles (export/kml.ts);
//                                image overlays name their images by address
//   {map url}/download.kmz       the same KML with the overlays' images inside (export/kmz.ts)
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
import { kmzOfMap, type ArchivedImage } from '../../lib/formats/export/kmz.js';
import { findImages } from '../../db/media.js';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import { isOverlay } from '../../lib/geojson/overlay.js';
import { pickDerivative } from '../../lib/media/derivatives.js';
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

/** The overlay image put in a KMZ: the derivative for a 2048-pixel box, as the map draws it. */
const KMZ_IMAGE_BOX = 2048;
/** Most bytes of overlay images one KMZ holds; the overlays past it name their images by address. */
export const MAX_KMZ_IMAGE_BYTES = 50 * 1024 * 1024;
const IMAGE_EXTENSION: Record<string, ArchivedImage['extension']> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** The files of the overlays' images (in the map's order, up to MAX_KMZ_IMAGE_BYTES). */
async function overlayImages(db: Db, blobs: BlobStore, features: readonly MapFeature[]): Promise<Map<string, ArchivedImage>> {
  const ids = [...new Set(features.filter((feature) => isOverlay(feature.properties)).map((feature) => (feature.properties.image as { id?: unknown } | undefined)?.id).filter((id): id is string => typeof id === 'string'))];
  const files = new Map<string, ArchivedImage>();
  if (ids.length === 0) return files;
  const records = new Map((await findImages(db, ids)).map((image) => [image.id, image]));
  let bytes = 0;
  for (const id of ids) {
    const derivative = records.get(id) && pickDerivative(records.get(id)!.derivatives, KMZ_IMAGE_BOX);
    const extension = derivative && IMAGE_EXTENSION[derivative.contentType];
    if (!derivative || !extension || bytes + derivative.size > MAX_KMZ_IMAGE_BYTES || !(await blobs.exists(derivative.key))) continue;
    files.set(id, { bytes: await blobs.read(derivative.key), extension });
    bytes += derivative.size;
  }
  return files;
}

export function mountMapDownloads(router: Router, db: Db, blobs: BlobStore, publicUrl: string): void {
  const viewerId = viewerIdOf(db);
  /** An overlay image's address, for a plain KML (and a KMZ's images past its budget). */
  const imageAddress = (id: string) => `${publicUrl}/images/${encodeURIComponent(id)}/s${KMZ_IMAGE_BOX}`;

  const download = (extension: 'geojson' | 'csv' | 'xlsx' | 'kml' | 'kmz' | 'gpx') => async (ctx: Context) => {
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
      ctx.body = kmlOfMap(map, document.features, document.groups ?? [], imageAddress);
      return;
    }
    if (extension === 'kmz') {
      ctx.set('X-Shapes-Left-Out', '0');
      ctx.type = 'application/vnd.google-earth.kmz';
      ctx.body = await kmzOfMap(map, document.features, document.groups ?? [], await overlayImages(db, blobs, document.features), imageAddress);
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
  router.get('/:owner/:shortName/download.kmz', download('kmz'));
  router.get('/:owner/:shortName/download.gpx', download('gpx'));
}
