// The editor's Overlay tool's geometry (no DOM, no map library): where a new image overlay goes
// in the view, and moving, scaling, rotating it and moving one corner. Worked in Web Mercator
// (the map's own plane), so an overlay keeps its shape on screen as it turns; the corners are
// lib/geojson/overlay.ts's (lower-left, lower-right, upper-right, upper-left), rounded to 7
// decimals as every position the editor makes.
import type { OverlayCorners } from '../../lib/geojson/overlay.js';
import type { Position } from '../../lib/geojson/geometry.js';

type XY = [number, number];

const MAX_LAT = 85;
const toXY = ([lon, lat]: Position): XY => {
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat as number));
  return [(lon as number) / 360, Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) / (2 * Math.PI)];
};
const round = (value: number) => Math.round(value * 1e7) / 1e7;
const toLonLat = ([x, y]: XY): Position => [round(x * 360), round(Math.max(-MAX_LAT, Math.min(MAX_LAT, (360 / Math.PI) * Math.atan(Math.exp(y * 2 * Math.PI)) - 90)))];
const corners = (points: XY[]): OverlayCorners => points.map(toLonLat) as OverlayCorners;
const centreOf = (points: XY[]): XY => [points.reduce((sum, [x]) => sum + x, 0) / points.length, points.reduce((sum, [, y]) => sum + y, 0) / points.length];

/** The view's west, south, east and north edges. */
export type ViewBounds = [number, number, number, number];

/**
 * A new overlay of an image `width` × `height` pixels: upright, in the middle of the view, at the
 * image's aspect ratio, half the view's width or height (whichever it reaches first).
 */
export function placeOverlay([west, south, east, north]: ViewBounds, width: number, height: number): OverlayCorners {
  const [x0, y0] = toXY([west, south]);
  const [x1, y1] = toXY([east, north]);
  const [viewWidth, viewHeight] = [x1 - x0, y1 - y0];
  const aspect = width > 0 && height > 0 ? width / height : 1;
  const half = Math.min(viewWidth / 2 / aspect, viewHeight / 2);
  const [w, h] = [half * aspect, half];
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  return corners([
    [cx - w / 2, cy - h / 2],
    [cx + w / 2, cy - h / 2],
    [cx + w / 2, cy + h / 2],
    [cx - w / 2, cy + h / 2],
  ]);
}

/** Moved by a share of its own width (`right`) and height (`up`): 0.1 is a tenth. */
export function moveOverlay(given: OverlayCorners, right: number, up: number): OverlayCorners {
  const points = given.map(toXY);
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [dx, dy] = [(Math.max(...xs) - Math.min(...xs)) * right, (Math.max(...ys) - Math.min(...ys)) * up];
  return corners(points.map(([x, y]) => [x + dx, y + dy]));
}

/** Scaled about its centre by `factor` (1.1: a tenth bigger). */
export function scaleOverlay(given: OverlayCorners, factor: number): OverlayCorners {
  const points = given.map(toXY);
  const [cx, cy] = centreOf(points);
  return corners(points.map(([x, y]) => [cx + (x - cx) * factor, cy + (y - cy) * factor]));
}

/** Turned about its centre by `degrees`, clockwise as seen on the map. */
export function rotateOverlay(given: OverlayCorners, degrees: number): OverlayCorners {
  const points = given.map(toXY);
  const [cx, cy] = centreOf(points);
  const angle = (-degrees * Math.PI) / 180; // y grows northwards: clockwise is a negative angle
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  return corners(points.map(([x, y]) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos]));
}

/** One corner (0 lower-left … 3 upper-left) moved to `at`, the others where they are. */
export function moveCorner(given: OverlayCorners, index: number, at: Position): OverlayCorners {
  return given.map((corner, i) => (i === index ? [round(at[0] as number), round(at[1] as number)] : corner)) as OverlayCorners;
}
