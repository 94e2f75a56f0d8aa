// Web Mercator, in "world units": the whole world is the square [0, 1] × [0, 1] (x east from
// the antimeridian, y south from 85.05°N). A view is that square scaled to `worldSize` pixels and
// cropped to the image, so projecting a position is one multiply and one subtract.
export const MAX_LATITUDE = 85.0511287798066;

export const worldX = (lon: number): number => (lon + 180) / 360;

export function worldY(lat: number): number {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const phi = (clamped * Math.PI) / 180;
  return (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2;
}

/** [minX, minY, maxX, maxY] in world units. */
export type WorldBounds = [number, number, number, number];

export interface View {
  width: number;
  height: number;
  /** Pixels across the whole world at this view's zoom (256 · 2^zoom). */
  worldSize: number;
  zoom: number;
  /** The world position of the image's top-left corner. */
  left: number;
  top: number;
}

export interface FramingOptions {
  width: number;
  height: number;
  /** Pixels kept free around the content on every side. */
  padding: number;
  /** The closest zoom a framing may choose (one point alone, a small neighbourhood). */
  maxZoom: number;
}

/** The world between about 58°S and 78°N: what an empty map shows. */
export const WORLD_VIEW_BOUNDS: WorldBounds = [worldX(-175), worldY(78), worldX(180), worldY(-58)];

/** The view showing `bounds` whole with padding, centred; the world view when bounds is null. */
export function frameView(bounds: WorldBounds | null, options: FramingOptions): View {
  const [minX, minY, maxX, maxY] = bounds ?? WORLD_VIEW_BOUNDS;
  const innerWidth = Math.max(1, options.width - 2 * options.padding);
  const innerHeight = Math.max(1, options.height - 2 * options.padding);
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  // The world fits the image's width at least once: no zoom below that (an image of repeats).
  const minZoom = Math.log2(options.width / 256);
  let zoom = options.maxZoom;
  if (spanX > 0 || spanY > 0) {
    const fitX = spanX > 0 ? innerWidth / (spanX * 256) : Infinity;
    const fitY = spanY > 0 ? innerHeight / (spanY * 256) : Infinity;
    zoom = Math.min(options.maxZoom, Math.log2(Math.min(fitX, fitY)));
  }
  zoom = Math.max(minZoom, zoom);
  const worldSize = 256 * 2 ** zoom;
  const centerX = (minX + maxX) / 2;
  // Keep the view inside the world vertically: nothing but blank above 85°N or below 85°S.
  const halfHeight = options.height / 2 / worldSize;
  const centerY = Math.max(halfHeight, Math.min(1 - halfHeight, (minY + maxY) / 2));
  return {
    width: options.width,
    height: options.height,
    worldSize,
    zoom,
    left: centerX - options.width / 2 / worldSize,
    top: centerY - halfHeight,
  };
}
