// Snapping a pointer to shapes on the screen (web/app/snapGeometry.ts) and drawing on from a
// line's end (web/app/extendLine.ts), with a plain projection: 100 pixels a degree, y down.
import { describe, expect, it } from 'vitest';
import { endNear, endPosition, joinExtension } from '../../web/app/extendLine.js';
import { nearestOnSegment, pathsOf, snapToGeometries, type Position } from '../../web/app/snapGeometry.js';

let projected = 0;
const projection = {
  project: ([lon, lat]: Position): Position => {
    projected += 1;
    return [lon * 100, -lat * 100];
  },
  unproject: ([x, y]: Position): Position => [x / 100, -y / 100],
};
const pixel = (lon: number, lat: number): Position => [lon * 100, -lat * 100];

describe('snapping to shapes on the screen', () => {
  it('snaps to the nearest vertex within the tolerance, exactly on its coordinates', () => {
    const point = { type: 'Point', coordinates: [1.123456789, 2.987654321] };
    const line = { type: 'LineString', coordinates: [[1.4, 3], [1.5, 3]] };
    const at = pixel(1.123456789, 2.987654321);
    const snap = snapToGeometries([at[0] + 4, at[1] - 3], [line, point], projection, 10);
    expect(snap).toEqual({ coordinate: [1.123456789, 2.987654321], kind: 'vertex', distance: 5 });
    // Two vertices in reach: the nearer one.
    expect(snapToGeometries([124, -300], [{ type: 'MultiPoint', coordinates: [[1.2, 3], [1.3, 3]] }, line], projection, 10)?.coordinate).toEqual([1.2, 3]);
  });

  it('prefers a vertex in reach to a nearer point of a segment', () => {
    const line = { type: 'LineString', coordinates: [[0, 0], [1, 0]] };
    // 1 px from the segment, 8 px from its first vertex.
    expect(snapToGeometries([8, 1], [line], projection, 10)).toMatchObject({ coordinate: [0, 0], kind: 'vertex' });
  });

  it('else snaps to the nearest point of a segment of a line or an area’s ring', () => {
    const line = { type: 'LineString', coordinates: [[0, 0], [1, 0]] };
    const snap = snapToGeometries([50, 6], [line], projection, 10)!;
    expect(snap.kind).toBe('segment');
    expect(snap.distance).toBeCloseTo(6);
    expect(snap.coordinate[0]).toBeCloseTo(0.5);
    expect(snap.coordinate[1]).toBeCloseTo(0);
    const area = { type: 'Polygon', coordinates: [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]] };
    // Inside the area, 3 px from its east edge: on the edge, not at a corner.
    const edge = snapToGeometries(pixel(1.97, 1), [area], projection, 10)!;
    expect(edge.kind).toBe('segment');
    expect(edge.coordinate[0]).toBeCloseTo(2);
    expect(edge.coordinate[1]).toBeCloseTo(1);
  });

  it('snaps nowhere beyond the tolerance, and not between separate points', () => {
    const line = { type: 'LineString', coordinates: [[0, 0], [1, 0]] };
    expect(snapToGeometries([50, 11], [line], projection, 10)).toBeUndefined();
    expect(snapToGeometries([50, 0], [{ type: 'MultiPoint', coordinates: [[0, 0], [1, 0]] }], projection, 10)).toBeUndefined();
    expect(snapToGeometries([50, 0], [null, undefined, { type: 'Point' }], projection, 10)).toBeUndefined();
  });

  it('projects only what is near the pointer: a line of 100,000 vertices costs a handful of projections', () => {
    const coordinates = Array.from({ length: 100_000 }, (_, i) => [i * 0.01, (i % 2) * 0.01]);
    projected = 0;
    const snap = snapToGeometries(pixel(500.003, 0.004), [{ type: 'LineString', coordinates }], projection, 10);
    expect(snap?.kind).toBe('vertex');
    expect(snap?.coordinate).toEqual([500, 0]);
    expect(projected).toBeLessThan(40);
  });

  it('reads every kind of geometry as runs of positions', () => {
    expect(pathsOf({ type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [0, 1], [0, 0]]], [[[5, 5], [6, 5], [5, 6], [5, 5]]]] })).toHaveLength(2);
    expect(pathsOf({ type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [0, 0] }, { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]]] }] })).toEqual([
      { positions: [[0, 0]], joined: false },
      { positions: [[0, 0], [1, 1]], joined: true },
    ]);
  });

  it('finds the nearest point of a segment, clamped to its ends', () => {
    expect(nearestOnSegment([5, 5], [0, 0], [10, 0])).toEqual({ point: [5, 0], distance: 5 });
    expect(nearestOnSegment([-3, 4], [0, 0], [10, 0])).toEqual({ point: [0, 0], distance: 5 });
    expect(nearestOnSegment([3, 4], [0, 0], [0, 0])).toEqual({ point: [0, 0], distance: 5 });
  });
});

describe('drawing on from a line’s end', () => {
  const line: Position[] = [[0, 0], [1, 0], [1, 1]];
  it('finds the end a click is on', () => {
    expect(endNear(line, pixel(1, 1), projection.project, 12)).toBe('end');
    expect(endNear(line, [5, 5], projection.project, 12)).toBe('start');
    expect(endNear(line, pixel(1, 0), projection.project, 12)).toBeUndefined(); // the middle vertex
    expect(endNear([[0, 0]], [0, 0], projection.project, 12)).toBeUndefined();
  });

  it('joins the extension to the line, keeping its direction', () => {
    expect(endPosition(line, 'end')).toEqual([1, 1]);
    expect(endPosition(line, 'start')).toEqual([0, 0]);
    expect(joinExtension(line, 'end', [[1, 1], [2, 1], [2, 2]])).toEqual([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2]]);
    expect(joinExtension(line, 'start', [[0, 0], [-1, 0], [-1, -1]])).toEqual([[-1, -1], [-1, 0], [0, 0], [1, 0], [1, 1]]);
    expect(line).toEqual([[0, 0], [1, 0], [1, 1]]);
  });
});
