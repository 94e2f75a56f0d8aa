// Points too many to draw one by one: at the zooms where a map's points crowd (`crowdedBelow`),
// every point is still drawn, each a small dot in its colour at its place, but into 512-pixel
// pictures made once per tile rather than as a circle the map's WebGL draws again at every frame
// (100,000 circles take software WebGL 35 ms a frame before a pixel is coloured: their 400,000
// vertices); a tile is a few quads. Also the dot under a click. No map library here: the adapter
// hands the tiles to MapLibre.

/** A point to draw: where (longitude, latitude) and in what colour (#rrggbb). */
export interface Dot {
  id: number;
  coordinates: [number, number];
  color: string;
}

export const DOT_TILE_SIZE = 512;
/** The dots' radius in pixels (the circles of sparser zooms are 11). */
const RADIUS = 3;

/** Web Mercator x, y in [0, 1) of a position. */
export function mercator([lon, lat]: [number, number]): [number, number] {
  const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return [(lon + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)];
}

/**
 * The most points a map tile (512 px) may hold for them to be drawn as circles with their icons
 * at its zoom. Circles that close together cover each other anyway, each costs software WebGL its
 * vertices at every frame and each icon MapLibre's worker a symbol (a tile of more than 32,767
 * symbols breaks MapLibre 6: its placed-symbol index is 16-bit). Denser, they are dots.
 */
export const POINTS_PER_TILE = 2_000;

/** The lowest zoom at which no map tile holds more than POINTS_PER_TILE of these positions: below it they are dots. */
export function crowdedBelow(positions: [number, number][]): number {
  if (positions.length <= POINTS_PER_TILE) return 0;
  const DEEPEST = 16;
  const side = 2 ** DEEPEST;
  // Tile coordinates at the deepest zoom; a shallower zoom's tile is them shifted right.
  const xs = new Uint32Array(positions.length);
  const ys = new Uint32Array(positions.length);
  positions.forEach((position, i) => {
    const [x, y] = mercator(position);
    xs[i] = Math.min(side - 1, Math.max(0, Math.floor(x * side)));
    ys[i] = Math.min(side - 1, Math.max(0, Math.floor(y * side)));
  });
  for (let zoom = 0; zoom < DEEPEST; zoom += 1) {
    const counts = new Map<number, number>();
    let most = 0;
    for (let i = 0; i < xs.length; i += 1) {
      const tile = (xs[i]! >>> (DEEPEST - zoom)) * 2 ** zoom + (ys[i]! >>> (DEEPEST - zoom));
      const count = (counts.get(tile) ?? 0) + 1;
      counts.set(tile, count);
      most = Math.max(most, count);
    }
    if (most <= POINTS_PER_TILE) return zoom;
  }
  return DEEPEST;
}

/**
 * A dot of one colour, as RGBA pixels (STAMP × STAMP), drawn once per colour. No white edge as
 * the circles have: where dots overlap, the edges would turn a crowd white.
 */
const STAMP = 2 * RADIUS + 2;
function stamp(color: string): Uint8ClampedArray {
  const canvas = new OffscreenCanvas(STAMP, STAMP);
  // Drawn by the CPU: without a GPU, a canvas the browser accelerates goes through software WebGL.
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.beginPath();
  context.arc(STAMP / 2, STAMP / 2, RADIUS, 0, 2 * Math.PI);
  context.fillStyle = color;
  context.fill();
  return context.getImageData(0, 0, STAMP, STAMP).data;
}

export class DotTiles {
  private ids = new Float64Array(0);
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  private colors = new Uint16Array(0);
  private stamps: Uint8ClampedArray[] = [];

  /** Replaces the points drawn (the later ones on top). */
  set(dots: readonly Dot[]): void {
    this.ids = new Float64Array(dots.length);
    this.xs = new Float64Array(dots.length);
    this.ys = new Float64Array(dots.length);
    this.colors = new Uint16Array(dots.length);
    const palette = new Map<string, number>();
    dots.forEach((dot, i) => {
      [this.xs[i], this.ys[i]] = mercator(dot.coordinates);
      this.ids[i] = dot.id;
      let color = palette.get(dot.color);
      if (color === undefined) palette.set(dot.color, (color = palette.size));
      this.colors[i] = color;
    });
    this.stamps = [...palette.keys()].map(stamp);
  }

  /**
   * The picture of tile z/x/y (DOT_TILE_SIZE pixels a side). The dots' pixels are blended into
   * an array here: a canvas's drawImage per dot costs ten times as much.
   */
  draw(z: number, x: number, y: number): Promise<ImageBitmap> {
    const size = DOT_TILE_SIZE;
    const pixels = new Uint8ClampedArray(size * size * 4);
    const world = size * 2 ** z;
    const [left, top] = [x * size, y * size];
    const half = STAMP / 2;
    for (let i = 0; i < this.xs.length; i += 1) {
      const ox = Math.round(this.xs[i]! * world - left - half);
      const oy = Math.round(this.ys[i]! * world - top - half);
      if (ox <= -STAMP || oy <= -STAMP || ox >= size || oy >= size) continue;
      const dot = this.stamps[this.colors[i]!]!;
      for (let sy = Math.max(0, -oy); sy < STAMP && oy + sy < size; sy += 1) {
        for (let sx = Math.max(0, -ox); sx < STAMP && ox + sx < size; sx += 1) {
          const s = (sy * STAMP + sx) * 4;
          const alpha = dot[s + 3]! / 255;
          if (alpha === 0) continue;
          // "Source over" on straight (not premultiplied) RGBA.
          const d = ((oy + sy) * size + ox + sx) * 4;
          const below = (pixels[d + 3]! / 255) * (1 - alpha);
          const out = alpha + below;
          pixels[d] = (dot[s]! * alpha + pixels[d]! * below) / out;
          pixels[d + 1] = (dot[s + 1]! * alpha + pixels[d + 1]! * below) / out;
          pixels[d + 2] = (dot[s + 2]! * alpha + pixels[d + 2]! * below) / out;
          pixels[d + 3] = out * 255;
        }
      }
    }
    return createImageBitmap(new ImageData(pixels, size, size));
  }

  /** The id of the point nearest to a Web Mercator position, if one is within `tolerance` (in the same units). */
  pick([mx, my]: [number, number], tolerance: number): number | undefined {
    let best: number | undefined;
    let bestDistance = tolerance * tolerance;
    for (let i = 0; i < this.xs.length; i += 1) {
      const dx = this.xs[i]! - mx;
      const dy = this.ys[i]! - my;
      const distance = dx * dx + dy * dy;
      if (distance <= bestDistance) {
        bestDistance = distance;
        best = this.ids[i];
      }
    }
    return best;
  }
}
