// Snapping what is drawn to the map's other features — the ones in MapLibre's sources, not in
// the drawing (terra-draw holds only the shape being drawn or edited): at each pointer move, the
// features drawn in a small box around the pointer (the map's own index of rendered features,
// so the cost is bounded by what is near, not by the map's 100,000 points), plus, where points
// are shown as dots (./densePoints.ts: pictures, not features), the dot under the pointer. Their
// exact geometries (not the tiles' rounded copies) go to ./snapGeometry.ts. The map is given
// by the adapter (./mapAdapter.ts): this module imports no map library.
import { snapToGeometries, type Position, type SnapGeometry } from './snapGeometry.js';

/** What snapping asks of the map (MapLibre's Map has these). */
export interface SnappingMap {
  queryRenderedFeatures(box: [[number, number], [number, number]], options: { layers: string[] }): { properties?: Record<string, unknown> | null }[];
  project(position: Position): { x: number; y: number };
  unproject(pixel: Position): { lng: number; lat: number };
}

export interface MapSnappingOptions {
  map: SnappingMap;
  /** The map's layers of features to snap to (ones that exist in the style). */
  layers: string[];
  /** A feature's geometry by its id (`_id` of the rendered features). */
  geometryOf(id: number): SnapGeometry | null | undefined;
  /** The point drawn as a dot within `pixels` of a place on the screen, if points are dots there. */
  dotNear?(pixel: Position, pixels: number): number | undefined;
}

/** How near (in pixels) the pointer must come to a vertex or a line to snap to it. */
export const SNAP_PIXELS = 10;

/** Where a pointer at `pixel` (in the map's container) snaps, `exclude` (the shape being edited) aside; undefined: nowhere near. */
export type Snapper = (pixel: Position, exclude?: number) => Position | undefined;

export function mapSnapping({ map, layers, geometryOf, dotNear }: MapSnappingOptions): Snapper {
  const projection = {
    project: (position: Position): Position => {
      const { x, y } = map.project(position);
      return [x, y];
    },
    unproject: (pixel: Position): Position => {
      const { lng, lat } = map.unproject(pixel);
      return [lng, lat];
    },
  };
  return (pixel, exclude) => {
    const [x, y] = pixel;
    const ids = new Set<number>();
    const box: [[number, number], [number, number]] = [
      [x - SNAP_PIXELS, y - SNAP_PIXELS],
      [x + SNAP_PIXELS, y + SNAP_PIXELS],
    ];
    for (const feature of map.queryRenderedFeatures(box, { layers })) {
      const id = Number(feature.properties?._id);
      if (Number.isFinite(id)) ids.add(id); // a previewed version's features have no id (NaN)
    }
    const dot = dotNear?.(pixel, SNAP_PIXELS);
    if (dot !== undefined) ids.add(dot);
    if (exclude !== undefined) ids.delete(exclude);
    if (ids.size === 0) return undefined;
    const geometries = [...ids].map(geometryOf);
    return snapToGeometries(pixel, geometries, projection, SNAP_PIXELS)?.coordinate;
  };
}
