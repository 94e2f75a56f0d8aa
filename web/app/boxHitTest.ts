// Which items a box dragged on the map touches, found in the map's own data (not by asking the map
// library what it drew): a point (or a text label) inside the box; a line or an area when any of
// its vertices is inside the box or any of its segments crosses the box's edge. An area that
// holds the whole box without an edge inside it is not touched (a box dragged inside a big park
// selects the things in the park, not the park). The box is the four corners of the dragged
// rectangle on the map (any rotation), tested in Web Mercator, where the screen's straight lines
// are straight; a box across the antimeridian finds items on both sides. No map library here.
import { mercator } from './densePoints.js';

export type LonLat = [number, number];

interface Box {
  /** The corners in Web Mercator (x, y in [0, 1) but for a box past the antimeridian), in order around. */
  xs: number[];
  ys: number[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** How far a vertex's x is moved to meet the box past the antimeridian: 0, and ±1 where needed. */
  shifts: number[];
}

function boxOf(corners: readonly LonLat[]): Box {
  // A longitude past ±180 (a map scrolled across the antimeridian) gives an x past [0, 1).
  const projected = corners.map((corner) => mercator(corner));
  const xs = projected.map((p) => p[0]);
  const ys = projected.map((p) => p[1]);
  const box = { xs, ys, minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys), shifts: [0] };
  if (box.minX < 0) box.shifts.push(-1);
  if (box.maxX > 1) box.shifts.push(1);
  return box;
}

/** Whether (x, y) is inside the box: inside its bounds, and on the inner side of each edge (a convex quadrilateral). */
function inside(box: Box, x: number, y: number): boolean {
  if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY) return false;
  const { xs, ys } = box;
  const n = xs.length;
  let sign = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const cross = (xs[j]! - xs[i]!) * (y - ys[i]!) - (ys[j]! - ys[i]!) * (x - xs[i]!);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

const orientation = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));

/** Whether the segment (ax, ay)–(bx, by) crosses an edge of the box. */
function crosses(box: Box, ax: number, ay: number, bx: number, by: number): boolean {
  if (Math.max(ax, bx) < box.minX || Math.min(ax, bx) > box.maxX || Math.max(ay, by) < box.minY || Math.min(ay, by) > box.maxY) return false;
  const { xs, ys } = box;
  for (let i = 0; i < xs.length; i++) {
    const j = (i + 1) % xs.length;
    const [cx, cy, dx, dy] = [xs[i]!, ys[i]!, xs[j]!, ys[j]!];
    if (orientation(ax, ay, bx, by, cx, cy) !== orientation(ax, ay, bx, by, dx, dy) && orientation(cx, cy, dx, dy, ax, ay) !== orientation(cx, cy, dx, dy, bx, by)) return true;
  }
  return false;
}

/** Whether a list of positions (a line or a ring; one position for a point) touches the box. */
function touches(box: Box, positions: readonly LonLat[]): boolean {
  let lastX = NaN;
  let lastY = NaN;
  for (const position of positions) {
    const [mx, y] = mercator(position);
    for (const shift of box.shifts) {
      const x = mx + shift;
      if (inside(box, x, y)) return true;
      if (!Number.isNaN(lastX) && crosses(box, lastX + shift, lastY, x, y)) return true;
    }
    lastX = mx;
    lastY = y;
  }
  return false;
}

/** The lists of positions of a geometry: a point is a list of one, a polygon its rings. */
function* positionLists(geometry: { type: string; coordinates?: unknown; geometries?: unknown }): Generator<readonly LonLat[]> {
  const coordinates = geometry.coordinates as never;
  switch (geometry.type) {
    case 'Point':
      yield [coordinates];
      return;
    case 'MultiPoint':
      for (const point of coordinates as LonLat[]) yield [point];
      return;
    case 'LineString':
      yield coordinates;
      return;
    case 'MultiLineString':
    case 'Polygon':
      yield* coordinates as LonLat[][];
      return;
    case 'MultiPolygon':
      for (const polygon of coordinates as LonLat[][][]) yield* polygon;
      return;
    case 'GeometryCollection':
      for (const part of (geometry.geometries ?? []) as { type: string }[]) yield* positionLists(part);
      return;
    default:
      return;
  }
}

export interface Hittable {
  id: number;
  geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
}

/** The ids of the features the box (its four corners, in longitude and latitude) touches, in the features' order. */
export function boxHits(features: Iterable<Hittable>, corners: readonly LonLat[]): number[] {
  const box = boxOf(corners);
  const hits: number[] = [];
  for (const feature of features) {
    if (!feature.geometry) continue;
    for (const positions of positionLists(feature.geometry)) {
      if (positions.length > 0 && touches(box, positions)) {
        hits.push(feature.id);
        break;
      }
    }
  }
  return hits;
}
