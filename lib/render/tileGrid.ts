// Which XYZ raster tiles a static map view needs, and where each is drawn. Pure arithmetic (no
// canvas, no I/O) so the renderer draws with whatever it likes and this stays easy to test.
//
// The view is the renderer's (mercator.ts): Web Mercator with the usual zoom convention, the
// whole world 256·2^zoom pixels wide, whatever the provider's tile size. A 512-px tile at tile
// zoom z therefore covers what four 256-px tiles cover at z+1.
import type { View } from './mercator.js';

/** One XYZ tile address. */
export interface TileCoord {
  z: number;
  x: number;
  y: number;
}

/** Where one tile is drawn on the view's canvas: integer pixels, so neighbouring tiles never leave a seam. */
export interface TilePlacement {
  tile: TileCoord;
  /** Top-left corner on the canvas (may be negative: the tile sticks out of the view). */
  left: number;
  top: number;
  /** Drawn size (`ctx.drawImage(image, left, top, width, height)`). */
  width: number;
  height: number;
}

export interface TileGrid {
  /** The integer zoom of the tiles fetched. */
  zoom: number;
  /** Drawn pixels per tile pixel: 1 ≤ scale < 2, except above the basemap's maxZoom (> 2, enlarged) or below tile zoom 0 (< 1). */
  scale: number;
  /** Every tile to draw, in drawing order (rows from the top); the same tile can appear more than once when the view is wider than the world. */
  placements: TilePlacement[];
  /** The distinct tiles of `placements`: what to fetch. */
  tiles: TileCoord[];
}

export interface TileSource {
  tileSize: 256 | 512;
  maxZoom: number;
}

/** Views this large are a caller's bug; refusing them keeps a typo from asking for millions of tiles. */
const MAX_VIEW_SIDE = 16_384;

/**
 * The integer tile zoom for a view zoom: tiles are drawn at 1–2× their own size (never shrunk
 * below 1×, where they would waste bytes, nor stretched past 2× unless the provider has no
 * deeper tiles).
 */
export function tileZoomFor(viewZoom: number, source: TileSource): number {
  // A 512-px tile holds one zoom level more detail than a 256-px tile at the same z.
  const offset = Math.log2(source.tileSize / 256);
  // The epsilon keeps 2.9999999999 (a zoom computed from a bounding box) from dropping a level.
  const ideal = Math.floor(viewZoom - offset + 1e-9);
  return Math.max(0, Math.min(Math.floor(source.maxZoom), ideal));
}

/** Refuses views no renderer means: a NaN, a negative zoom, a side that is not whole pixels. */
function checkView(view: WorldFrame): void {
  const finite = [view.left, view.top, view.zoom, view.width, view.height].every(Number.isFinite);
  if (!finite) throw new RangeError('tile grid: the view has a value that is not a finite number');
  if (view.zoom < 0 || view.zoom > 30) throw new RangeError(`tile grid: zoom ${view.zoom} is outside 0–30`);
  for (const side of [view.width, view.height]) {
    if (!Number.isInteger(side) || side < 1 || side > MAX_VIEW_SIDE) {
      throw new RangeError(`tile grid: image sides must be whole pixels from 1 to ${MAX_VIEW_SIDE}`);
    }
  }
}

/** A view as the renderer frames it (lib/render/mercator.ts): its zoom, size and top-left corner in world units. */
export type WorldFrame = Pick<View, 'zoom' | 'width' | 'height' | 'left' | 'top'>;

/** The tiles covering a view, and where to draw each. */
export function tileGrid(frame: WorldFrame, source: TileSource): TileGrid {
  checkView(frame);
  const zoom = tileZoomFor(frame.zoom, source);
  const tilesPerSide = 2 ** zoom;
  const worldSize = 256 * 2 ** frame.zoom;
  const drawnTile = worldSize / tilesPerSide;
  const viewLeft = frame.left * worldSize;
  const viewTop = frame.top * worldSize;

  // Columns run past the world's edges and wrap (the antimeridian); rows above or below the
  // world have no tiles and stay blank.
  const columns = span(viewLeft, frame.width, drawnTile);
  const rows = span(viewTop, frame.height, drawnTile).filter((row) => row >= 0 && row < tilesPerSide);

  const placements: TilePlacement[] = [];
  const distinct = new Map<string, TileCoord>();
  for (const row of rows) {
    for (const column of columns) {
      const x = ((column % tilesPerSide) + tilesPerSide) % tilesPerSide;
      const tile = { z: zoom, x, y: row };
      distinct.set(`${x}/${row}`, tile);
      // Each edge is rounded on its own, so a tile's right edge is its neighbour's left edge.
      const left = Math.round(column * drawnTile - viewLeft);
      const top = Math.round(row * drawnTile - viewTop);
      const right = Math.round((column + 1) * drawnTile - viewLeft);
      const bottom = Math.round((row + 1) * drawnTile - viewTop);
      placements.push({ tile, left, top, width: right - left, height: bottom - top });
    }
  }
  return { zoom, scale: drawnTile / source.tileSize, placements, tiles: [...distinct.values()] };
}

/** The tile indices whose cells overlap [start, start + length) on a line of cells `cell` wide. */
function span(start: number, length: number, cell: number): number[] {
  const first = Math.floor(start / cell + 1e-9);
  const last = Math.ceil((start + length) / cell - 1e-9) - 1;
  const indices: number[] = [];
  for (let index = first; index <= last; index += 1) indices.push(index);
  return indices;
}
