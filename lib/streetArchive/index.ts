// The street map archive the configuration names (BASEMAP_TILES): what the API, the styles and
// the static renderer use. Every process that needs it opens its own at start
// (openConfiguredStreetArchive: a few small reads, then ranges as tiles are asked for); without
// BASEMAP_TILES it is undefined and the built-in basemaps are Natural Earth's alone.
//
//   const streets = await openConfiguredStreetArchive(config);  // StreetArchive | undefined
//   streets.info            identity, minZoom, maxZoom, bounds, vectorLayers, attribution …
//   streets.tileUrlTemplate(config.publicUrl)   // …/basemaps/osm/<identity>/{z}/{x}/{y}.mvt
//   await streets.decodedTile(z, x, y)          // inflated MVT bytes, or undefined (nothing there)
//   await streets.storedTile(z, x, y)           // as stored (the HTTP route's)
import { s3ClientOf } from '../blobs/index.js';
import { ConfigError, type Config } from '../config.js';
import { StreetArchive } from './archive.js';
import { describeLocation, type StreetArchiveLocation } from './location.js';
import { ArchiveProblem, FileRangeSource, S3RangeSource, UrlRangeSource, type ClosableSource } from './sources.js';

export { StreetArchive, streetTilePathPrefix, type StoredTile, type StreetArchiveInfo } from './archive.js';
export { describeLocation, type StreetArchiveLocation } from './location.js';
export { OPENMAPTILES_LAYERS, type VectorLayer } from './schema.js';
export type { Bounds } from './tileBounds.js';

/** The source that reads the location's bytes. */
async function sourceOf(location: StreetArchiveLocation): Promise<ClosableSource> {
  if (location.kind === 'file') return FileRangeSource.open(location.path);
  if (location.kind === 's3') return new S3RangeSource(s3ClientOf(location.connection), location.bucket, location.key);
  return new UrlRangeSource(location.url);
}

/** Opens and checks the archive at the location; a problem is a ConfigError naming BASEMAP_TILES, the archive and what is wrong. */
export async function openStreetArchive(location: StreetArchiveLocation, cacheBytes: number): Promise<StreetArchive> {
  try {
    return await StreetArchive.open(await sourceOf(location), { cacheBytes });
  } catch (error) {
    const problem = error instanceof ArchiveProblem ? error.message : `cannot be read (${(error as Error).name}: ${(error as Error).message})`;
    throw new ConfigError(`BASEMAP_TILES: ${describeLocation(location)}: ${problem}`);
  }
}

/** The configured archive, opened and checked, or undefined without BASEMAP_TILES. */
export async function openConfiguredStreetArchive(config: Pick<Config, 'basemapTiles' | 'basemapTileCacheBytes'>): Promise<StreetArchive | undefined> {
  return config.basemapTiles ? openStreetArchive(config.basemapTiles, config.basemapTileCacheBytes) : undefined;
}

/** What `npm start` says when no archive is configured: how to add streets. */
export const NO_STREETS_HINT =
  'Basemaps show Natural Earth only (no streets): set BASEMAP_TILES to a PMTiles archive of OpenStreetMap in the OpenMapTiles schema, e.g. one built by `npm run basemap -- build region.osm.pbf` (README "Street maps").';

/** The log line of an opened archive. */
export function describeArchive(location: StreetArchiveLocation, archive: StreetArchive): string {
  const { identity, minZoom, maxZoom, bounds, boundsFrom } = archive.info;
  const box = bounds.map((value) => value.toFixed(4)).join(', ');
  return `Street basemap from ${describeLocation(location)} (identity ${identity}, zooms ${minZoom}–${maxZoom}, bounds ${box}${boundsFrom === 'tiles' ? ' from its tiles' : ''})`;
}
