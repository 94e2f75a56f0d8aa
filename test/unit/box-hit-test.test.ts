// The box select's hit test (web/app/boxHitTest.ts): points inside the box; lines and areas with
// a vertex inside or a segment crossing the box's edge; an area around the whole box is not hit;
// a rotated box; a box across the antimeridian; and how long 10,000 and 100,000 points take.
import { describe, expect, it } from 'vitest';
import { boxHits, type Hittable, type LonLat } from '../../web/app/boxHitTest.js';

const point = (id: number, coordinates: LonLat): Hittable => ({ id, geometry: { type: 'Point', coordinates } });
const line = (id: number, coordinates: LonLat[]): Hittable => ({ id, geometry: { type: 'LineString', coordinates } });
const area = (id: number, ring: LonLat[]): Hittable => ({ id, geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] } });
/** The box from (west, south) to (east, north), corners in order around. */
const box = (west: number, south: number, east: number, north: number): LonLat[] => [[west, north], [east, north], [east, south], [west, south]];

describe('box hit test', () => {
  it('finds the points inside the box, in the features’ order, and no point outside', () => {
    const features = [point(1, [0.5, 0.5]), point(2, [1.5, 0.5]), point(3, [0.1, 0.9]), point(4, [-0.1, 0.5]), point(5, [0.5, 1.01]), { id: 6, geometry: null }];
    expect(boxHits(features, box(0, 0, 1, 1))).toEqual([1, 3]);
  });

  it('finds a line or an area by a vertex inside or a segment across the box, not an area around the box', () => {
    const features = [
      line(1, [[-1, 0.5], [0.5, 0.5]]), // its end inside
      line(2, [[-1, 0.5], [2, 0.5]]), // straight through, no vertex inside
      line(3, [[-1, -1], [-1, 2]]), // beside the box
      area(4, [[-5, -5], [5, -5], [5, 5], [-5, 5]]), // around the whole box
      area(5, [[0.5, -1], [2, -1], [2, 2]]), // an edge across the box
      area(6, [[2, 2], [3, 2], [3, 3]]), // away
      { id: 7, geometry: { type: 'MultiPolygon', coordinates: [[[[10, 10], [11, 10], [11, 11], [10, 10]]], [[[0.2, 0.2], [0.3, 0.2], [0.3, 0.3], [0.2, 0.2]]]] } },
      { id: 8, geometry: { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [9, 9] }, { type: 'MultiPoint', coordinates: [[8, 8], [0.9, 0.1]] }] } },
    ];
    expect(boxHits(features, box(0, 0, 1, 1))).toEqual([1, 2, 5, 7, 8]);
  });

  it('takes a rotated box as it was drawn: a diamond misses its bounding box’s corners', () => {
    const diamond: LonLat[] = [[0, 1], [1, 0], [0, -1], [-1, 0]];
    expect(boxHits([point(1, [0, 0]), point(2, [0.8, 0.8]), point(3, [0.4, -0.4]), line(4, [[0.8, 0.8], [2, 2]])], diamond)).toEqual([1, 3]);
  });

  it('finds items on both sides of the antimeridian in a box across it', () => {
    // The map scrolled east past 180°: its box runs from 170° to 190° (= −170°).
    const features = [point(1, [175, 0]), point(2, [-175, 0]), point(3, [-165, 0]), point(4, [165, 0]), line(5, [[-179, 5], [-179, -5]])];
    expect(boxHits(features, box(170, -10, 190, 10))).toEqual([1, 2, 5]);
    expect(boxHits(features, box(-190, -10, -170, 10))).toEqual([1, 2, 5]);
  });

  it('tests 10,000 and 100,000 points in milliseconds', () => {
    const points = Array.from({ length: 100_000 }, (_, i) => point(i, [((i * 7919) % 36000) / 100 - 180, ((i * 104729) % 16000) / 100 - 80]));
    const time = (features: Hittable[]) => {
      const started = performance.now();
      const hits = boxHits(features, box(-20, -20, 20, 20));
      return { ms: performance.now() - started, hits: hits.length };
    };
    time(points.slice(0, 1000)); // warm up
    const ten = time(points.slice(0, 10_000));
    const hundred = time(points);
    console.log(`box hit test: 10,000 points in ${ten.ms.toFixed(1)} ms (${ten.hits} hit), 100,000 in ${hundred.ms.toFixed(1)} ms (${hundred.hits} hit)`);
    expect(ten.hits).toBeGreaterThan(100);
    expect(ten.ms).toBeLessThan(100);
    expect(hundred.ms).toBeLessThan(500);
  });
});
