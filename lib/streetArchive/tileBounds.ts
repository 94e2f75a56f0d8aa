// An archive's bounds when its header has none (tilemaker writes zeros): the extent of the tiles
// its directory lists at one zoom, the deepest whose tiles are few enough to go through at start.
// Tile ids are numbered zoom by zoom (PMTiles' Hilbert ids), so only the directory entries and
// leaf directories that overlap that zoom's ids are read.
import { tileIdToZxy, type Cache, type Entry, type Header, type Source } from 'pmtiles';

/** [west, south, east, north] in degrees. */
export type Bounds = [number, number, number, number];

/** Web Mercator's square: the whole world a tile pyramid covers. */
export const WORLD_BOUNDS: Bounds = [-180, -85.0511287798066, 180, 85.0511287798066];

/** Tile ids gone through at most (the estimate below), about a second's work. */
const TILES_WALKED = 4_000_000;

/** The header's bounds are not bounds: all zero (or not a box). */
export const hasNoBounds = (header: Header): boolean =>
  (header.minLon === 0 && header.minLat === 0 && header.maxLon === 0 && header.maxLat === 0) || header.minLon >= header.maxLon || header.minLat >= header.maxLat;

/** The first tile id of zoom z: the tiles of every zoom above it, (4^z − 1) / 3. */
const firstIdOfZoom = (z: number): number => (4 ** z - 1) / 3;

/** The deepest zoom whose tiles (estimated from the archive's count, at most 4^z) stay under the walk's budget. */
export function zoomToWalk(header: Header): number {
  let z = header.maxZoom;
  // Each zoom holds about three quarters of a pyramid's tiles; one zoom up, a quarter of that.
  while (z > header.minZoom && Math.min(header.numAddressedTiles / 4 ** (header.maxZoom - z), 4 ** z) > TILES_WALKED) z--;
  return z;
}

const lonOf = (x: number, z: number): number => (x / 2 ** z) * 360 - 180;
const latOf = (y: number, z: number): number => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;

/** The extent of the archive's tiles at zoomToWalk's zoom; the world when it lists none there. */
export async function boundsFromTiles(source: Source, cache: Cache, header: Header): Promise<Bounds> {
  const z = zoomToWalk(header);
  const [first, end] = [firstIdOfZoom(z), firstIdOfZoom(z + 1)];
  const extent = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const note = (id: number) => {
    const [, x, y] = tileIdToZxy(id);
    extent.minX = Math.min(extent.minX, x);
    extent.maxX = Math.max(extent.maxX, x);
    extent.minY = Math.min(extent.minY, y);
    extent.maxY = Math.max(extent.maxY, y);
  };
  const walk = async (entries: Entry[]): Promise<void> => {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      // An entry covers its ids up to the next entry's (a leaf directory) or its run's end (tiles).
      const next = entries[i + 1]?.tileId ?? Infinity;
      const last = entry.runLength === 0 ? next : entry.tileId + entry.runLength;
      if (last <= first || entry.tileId >= end) continue;
      if (entry.runLength === 0) {
        await walk(await cache.getDirectory(source, header.leafDirectoryOffset + entry.offset, entry.length, header));
      } else {
        for (let id = Math.max(entry.tileId, first); id < Math.min(last, end); id++) note(id);
      }
    }
  };
  await walk(await cache.getDirectory(source, header.rootDirectoryOffset, header.rootDirectoryLength, header));
  if (extent.minX === Infinity) return WORLD_BOUNDS;
  return [lonOf(extent.minX, z), latOf(extent.maxY + 1, z), lonOf(extent.maxX + 1, z), latOf(extent.minY, z)];
}
