// Image overlays (lib/geojson/overlay.ts) in the static images: each image laid into its four
// corners, under the map's other items, at its opacity. The corners are projected to pixels and
// the image drawn as two triangles (lower-left, lower-right, upper-right and upper-right,
// upper-left, lower-left), each with the affine transform that takes the image's triangle onto
// the corners' and clipped to it — the way MapLibre's image source draws it in the browser, so
// a rotated or skewed overlay lands in the same place in both.
import { createCanvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import type { View, WorldBounds } from './mercator.js';

export interface SceneOverlay {
  imageId: string;
  /** Lower-left, lower-right, upper-right, upper-left: x, y pairs in world units. */
  corners: Float64Array;
  opacity: number;
  box: WorldBounds;
}

type Point = [number, number];

/** Draws the triangle `from` of the image (its pixels) onto `to` (the canvas's pixels). */
function drawTriangle(ctx: SKRSContext2D, image: Image, from: [Point, Point, Point], to: [Point, Point, Point]): void {
  const [[u0, v0], [u1, v1], [u2, v2]] = from;
  const [[x0, y0], [x1, y1], [x2, y2]] = to;
  const det = (u1 - u0) * (v2 - v0) - (u2 - u0) * (v1 - v0);
  if (det === 0) return;
  // The affine map (a c e / b d f) with (u, v) → (x, y) at the three corners.
  const a = ((x1 - x0) * (v2 - v0) - (x2 - x0) * (v1 - v0)) / det;
  const b = ((y1 - y0) * (v2 - v0) - (y2 - y0) * (v1 - v0)) / det;
  const c = ((x2 - x0) * (u1 - u0) - (x1 - x0) * (u2 - u0)) / det;
  const d = ((y2 - y0) * (u1 - u0) - (y1 - y0) * (u2 - u0)) / det;
  const e = x0 - a * u0 - c * v0;
  const f = y0 - b * u0 - d * v0;
  ctx.save();
  ctx.beginPath();
  // Clipped a little outside the triangle, so the seam between the two halves does not show.
  const cx = (x0 + x1 + x2) / 3;
  const cy = (y0 + y1 + y2) / 3;
  const grow = ([x, y]: Point): Point => {
    const length = Math.hypot(x - cx, y - cy) || 1;
    return [x + ((x - cx) / length) * 1.5, y + ((y - cy) / length) * 1.5];
  };
  const [p0, p1, p2] = [grow(to[0]), grow(to[1]), grow(to[2])];
  ctx.moveTo(p0[0], p0[1]);
  ctx.lineTo(p1[0], p1[1]);
  ctx.lineTo(p2[0], p2[1]);
  ctx.closePath();
  ctx.clip();
  ctx.transform(a, b, c, d, e, f);
  ctx.drawImage(image, 0, 0);
  ctx.restore();
}

/** Draws the overlays whose images are given (one that is gone is left out), in the scene's order. */
export function drawOverlays(ctx: SKRSContext2D, overlays: readonly SceneOverlay[], view: View, images: ReadonlyMap<string, Image>): void {
  const right = view.left + view.width / view.worldSize;
  const bottom = view.top + view.height / view.worldSize;
  for (const overlay of overlays) {
    const image = images.get(overlay.imageId);
    if (!image || image.width === 0 || image.height === 0) continue;
    const [minX, minY, maxX, maxY] = overlay.box;
    if (maxX < view.left || minX > right || maxY < view.top || minY > bottom) continue;
    if (overlay.opacity <= 0) continue;
    const opaque = overlay.opacity >= 1;
    const c = overlay.corners;
    const pixel = (i: number): Point => [(c[2 * i]! - view.left) * view.worldSize, (c[2 * i + 1]! - view.top) * view.worldSize];
    const [lowerLeft, lowerRight, upperRight, upperLeft] = [pixel(0), pixel(1), pixel(2), pixel(3)];
    const w = image.width;
    const h = image.height;
    // The halves overlap along their seam: drawn opaque on a layer of their own, then laid on
    // the map at the overlay's opacity, the seam is not drawn twice as dark.
    const layer = opaque ? ctx : createCanvas(view.width, view.height).getContext('2d');
    drawTriangle(layer, image, [[0, h], [w, h], [w, 0]], [lowerLeft, lowerRight, upperRight]);
    drawTriangle(layer, image, [[w, 0], [0, 0], [0, h]], [upperRight, upperLeft, lowerLeft]);
    if (layer !== ctx) {
      ctx.save();
      ctx.globalAlpha = overlay.opacity;
      ctx.drawImage(layer.canvas, 0, 0);
      ctx.restore();
    }
  }
}
