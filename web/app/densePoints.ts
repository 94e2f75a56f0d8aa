// Points too many to draw one by one, drawn as dots into raster map tiles, and the dot under a
// click. At the zooms where a map's points crowd (web/app/mapAdapter.ts decides which), every
// point is still drawn, each as a small dot in its colour at its place, but into 512-pixel
// pictures made once per tile instead of as a circle that the map's WebGL draws again at every
// frame: 100,000 circles take software WebGL 35 ms a frame before a pixel is coloured (their
// 400,000 vertices), which makes panning stutter; a tile is a few quads. Plain canvas code: the
// adapter hands the tiles to MapLibre.

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

/** A dot of one colour with a thin white edge, drawn once and stamped for every point of that colour. */
function stamp(color: string): OffscreenCanvas {
  const size = 2 * RADIUS + 2;
  const canvas = new OffscreenCanvas(size, size);
  const context = canvas.getContext('2d')!;
  context.beginPath();
  context.arc(size / 2, size / 2, RADIUS, 0, 2 * Math.PI);
  context.fillStyle = color;
  context.fill();
  context.lineWidth = 0.75;
  context.strokeStyle = '#ffffff';
  context.stroke();
  return canvas;
}

export class DotTiles {
  private ids = new Float64Array(0);
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  private colors = new Uint16Array(0);
  private stamps: OffscreenCanvas[] = [];

  /** Replaces the points drawn. */
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

  /** The picture of tile z/x/y (DOT_TILE_SIZE pixels a side). */
  draw(z: number, x: number, y: number): ImageBitmap {
    const canvas = new OffscreenCanvas(DOT_TILE_SIZE, DOT_TILE_SIZE);
    const context = canvas.getContext('2d')!;
    const world = DOT_TILE_SIZE * 2 ** z;
    const [left, top] = [x * DOT_TILE_SIZE, y * DOT_TILE_SIZE];
    const offset = RADIUS + 1;
    for (let i = 0; i < this.xs.length; i += 1) {
      const px = this.xs[i]! * world - left;
      const py = this.ys[i]! * world - top;
      if (px < -offset || py < -offset || px > DOT_TILE_SIZE + offset || py > DOT_TILE_SIZE + offset) continue;
      context.drawImage(this.stamps[this.colors[i]!]!, Math.round(px) - offset, Math.round(py) - offset);
    }
    return canvas.transferToImageBitmap();
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
