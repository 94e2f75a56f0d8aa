// Snapping a pointer to shapes as they are seen on the screen: to the nearest vertex within a
// tolerance in pixels, else to the nearest point of a segment (a line's, an area's ring's). Pure:
// the caller gives the projection (longitude/latitude ↔ screen pixels), so the distances are the
// ones the person sees at the map's zoom. Far vertices and segments are skipped by comparing
// longitudes and latitudes with the pointer's tolerance box before anything is projected: a
// shape of thousands of vertices near the pointer costs comparisons, not projections.

export type Position = [number, number];

export interface Projection {
  /** Longitude, latitude → screen pixels. */
  project(position: Position): Position;
  /** Screen pixels → longitude, latitude. */
  unproject(pixel: Position): Position;
}

export interface Snap {
  coordinate: Position;
  kind: 'vertex' | 'segment';
  /** From the pointer, in pixels. */
  distance: number;
}

/** A GeoJSON geometry, as much of it as snapping reads. */
export interface SnapGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: SnapGeometry[];
}

/** A run of positions of a geometry; `joined`: consecutive positions make segments (lines, rings). */
interface Path {
  positions: Position[];
  joined: boolean;
}

const isPosition = (value: unknown): value is Position => Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'number';
const positionsOf = (value: unknown): Position[] => (Array.isArray(value) ? value.filter(isPosition) : []);
const arraysOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The runs of positions of a geometry: a point's (not joined), a line's, each ring of an area. */
export function pathsOf(geometry: SnapGeometry | null | undefined): Path[] {
  if (!geometry) return [];
  const { coordinates } = geometry;
  switch (geometry.type) {
    case 'Point':
      return isPosition(coordinates) ? [{ positions: [coordinates], joined: false }] : [];
    case 'MultiPoint':
      return [{ positions: positionsOf(coordinates), joined: false }];
    case 'LineString':
      return [{ positions: positionsOf(coordinates), joined: true }];
    case 'MultiLineString':
    case 'Polygon':
      return arraysOf(coordinates).map((run) => ({ positions: positionsOf(run), joined: true }));
    case 'MultiPolygon':
      return arraysOf(coordinates).flatMap((polygon) => arraysOf(polygon).map((ring) => ({ positions: positionsOf(ring), joined: true })));
    case 'GeometryCollection':
      return (geometry.geometries ?? []).flatMap(pathsOf);
    default:
      return [];
  }
}

/** The point of segment a–b nearest to p (all in pixels), and how far it is. */
export function nearestOnSegment(p: Position, a: Position, b: Position): { point: Position; distance: number } {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared));
  const point: Position = [a[0] + t * dx, a[1] + t * dy];
  return { point, distance: Math.hypot(p[0] - point[0], p[1] - point[1]) };
}

/**
 * Where a pointer (in pixels) snaps among these geometries: the nearest vertex within
 * `tolerance` pixels, else the nearest point of a segment within it, else nowhere. A vertex's
 * coordinate is the geometry's own (exactly); a point of a segment is the one on the segment as
 * drawn on the screen.
 */
export function snapToGeometries(pointer: Position, geometries: readonly (SnapGeometry | null | undefined)[], projection: Projection, tolerance: number): Snap | undefined {
  const paths = geometries.flatMap(pathsOf);
  if (paths.length === 0) return undefined;
  // The pointer's tolerance box in longitudes and latitudes (its four corners: the map may be rotated).
  const corners = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([sx, sy]) => projection.unproject([pointer[0] + sx! * tolerance, pointer[1] + sy! * tolerance]));
  const west = Math.min(...corners.map((corner) => corner[0]));
  const east = Math.max(...corners.map((corner) => corner[0]));
  const south = Math.min(...corners.map((corner) => corner[1]));
  const north = Math.max(...corners.map((corner) => corner[1]));
  const inside = ([lon, lat]: Position) => lon >= west && lon <= east && lat >= south && lat <= north;

  let best: Snap | undefined;
  for (const { positions } of paths) {
    for (const position of positions) {
      if (!inside(position)) continue;
      const [x, y] = projection.project(position);
      const distance = Math.hypot(pointer[0] - x, pointer[1] - y);
      if (distance <= tolerance && (!best || distance < best.distance)) best = { coordinate: [position[0], position[1]], kind: 'vertex', distance };
    }
  }
  if (best) return best;

  let nearest: { point: Position; distance: number } | undefined;
  for (const { positions, joined } of paths) {
    if (!joined) continue;
    for (let i = 1; i < positions.length; i += 1) {
      const a = positions[i - 1]!;
      const b = positions[i]!;
      // Both ends on one side of the box: the segment cannot come near.
      if ((a[0] < west && b[0] < west) || (a[0] > east && b[0] > east) || (a[1] < south && b[1] < south) || (a[1] > north && b[1] > north)) continue;
      const candidate = nearestOnSegment(pointer, projection.project(a), projection.project(b));
      if (candidate.distance <= tolerance && (!nearest || candidate.distance < nearest.distance)) nearest = candidate;
    }
  }
  return nearest ? { coordinate: projection.unproject(nearest.point), kind: 'segment', distance: nearest.distance } : undefined;
}
