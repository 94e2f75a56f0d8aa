// The editor's Overlay tool's geometry (web/app/overlayGeometry.ts): a new overlay in the middle
// of the view at its image's aspect ratio, and moving, scaling, turning it and moving one corner,
// each answering four corners that lib/geojson/overlay.ts accepts.
import { describe, expect, it } from 'vitest';
import { overlayPolygon, overlayProblem, type OverlayCorners } from '../../lib/geojson/overlay.js';
import { moveCorner, moveOverlay, placeOverlay, rotateOverlay, scaleOverlay } from '../../web/app/overlayGeometry.js';

const valid = (corners: OverlayCorners) => expect(overlayProblem(overlayPolygon(corners), { overlay: true, image: { id: 'x' } })).toBeNull();
const close = (a: OverlayCorners, b: OverlayCorners, digits = 6) => a.forEach((corner, i) => corner.forEach((value, j) => expect(value).toBeCloseTo(b[i]![j]!, digits)));

describe('overlay geometry', () => {
  it('places an upright overlay at the image’s aspect ratio, half the view, in its middle', () => {
    // At the equator degrees are square on the map's plane near the middle.
    const wide = placeOverlay([-10, -10, 10, 10], 400, 200);
    valid(wide);
    const [lowerLeft, lowerRight, upperRight, upperLeft] = wide;
    expect(lowerLeft[1]).toBe(lowerRight[1]);
    expect(upperLeft[1]).toBe(upperRight[1]);
    expect(lowerLeft[0]).toBe(upperLeft[0]);
    expect(lowerRight[0] - lowerLeft[0]).toBeCloseTo(10, 5); // half the view's width
    expect(upperLeft[1] - lowerLeft[1]).toBeCloseTo(5, 1);
    expect((lowerLeft[0] + lowerRight[0]) / 2).toBeCloseTo(0, 6);
    // A tall image reaches half the view's height first.
    const tall = placeOverlay([-10, -10, 10, 10], 100, 400);
    expect(tall[3][1] - tall[0][1]).toBeCloseTo(10, 1);
    expect(tall[1][0] - tall[0][0]).toBeCloseTo(2.5, 1);
  });

  it('moves, scales and turns about the centre, and back again', () => {
    const start = placeOverlay([2, 48, 3, 49], 640, 480);
    const moved = moveOverlay(start, 0.1, 0);
    valid(moved);
    expect(moved[0][0] - start[0][0]).toBeCloseTo((start[1][0] - start[0][0]) * 0.1, 6);
    expect(moved[0][1]).toBe(start[0][1]);
    close(moveOverlay(moved, -0.1, 0), start);
    close(scaleOverlay(scaleOverlay(start, 1.1), 1 / 1.1), start);
    const turned = rotateOverlay(start, 5);
    valid(turned);
    expect(turned[1][1]).toBeLessThan(start[1][1]); // clockwise: the lower-right corner goes down
    expect(turned[0][1]).toBeGreaterThan(start[0][1]);
    close(rotateOverlay(turned, -5), start);
    close(rotateOverlay(rotateOverlay(rotateOverlay(start, 120), 120), 120), start);
  });

  it('moves one corner and keeps the others', () => {
    const start = placeOverlay([2, 48, 3, 49], 640, 480);
    const moved = moveCorner(start, 2, [3.123456789, 49.1]);
    valid(moved);
    expect(moved[2]).toEqual([3.1234568, 49.1]);
    expect([moved[0], moved[1], moved[3]]).toEqual([start[0], start[1], start[3]]);
  });
});
