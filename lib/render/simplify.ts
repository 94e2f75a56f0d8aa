// Lines and rings simplified to an image's pixel scale (Douglas–Peucker, as MapLibre's
// geojson-vt simplifies for its tiles; its simplifier is internal to the package, so this is
// the same algorithm, iterative, over the scene's flat x, y arrays): a 100,000-vertex coastline
// drawn 1,200 pixels wide keeps the few thousand vertices the picture can show.

/**
 * The vertices of `coords` (x, y pairs) that keep the line within `tolerance` of the original
 * (same units), the first and the last always kept; `coords` itself when nothing can go.
 */
export function simplifyPart(coords: Float64Array, tolerance: number): Float64Array {
  // Each pass may move the line by its tolerance: half each keeps the whole within `tolerance`.
  return douglasPeucker(withoutNearPoints(coords, tolerance / 2), tolerance / 2);
}

/** A first cheap pass: vertices within `tolerance` of the last kept one dropped (the last vertex always kept). */
function withoutNearPoints(coords: Float64Array, tolerance: number): Float64Array {
  const count = coords.length / 2;
  if (count <= 2) return coords;
  const sqTolerance = tolerance * tolerance;
  const out = new Float64Array(coords.length);
  let lastX = coords[0]!;
  let lastY = coords[1]!;
  out[0] = lastX;
  out[1] = lastY;
  let j = 2;
  for (let i = 1; i < count - 1; i++) {
    const x = coords[2 * i]!;
    const y = coords[2 * i + 1]!;
    if ((x - lastX) * (x - lastX) + (y - lastY) * (y - lastY) <= sqTolerance) continue;
    out[j++] = lastX = x;
    out[j++] = lastY = y;
  }
  out[j++] = coords[coords.length - 2]!;
  out[j++] = coords[coords.length - 1]!;
  return j === coords.length ? coords : out.subarray(0, j);
}

function douglasPeucker(coords: Float64Array, tolerance: number): Float64Array {
  const count = coords.length / 2;
  if (count <= 2) return coords;
  const sqTolerance = tolerance * tolerance;
  const keep = new Uint8Array(count);
  keep[0] = 1;
  keep[count - 1] = 1;
  const stack: number[] = [0, count - 1];
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    const ax = coords[2 * first]!;
    const ay = coords[2 * first + 1]!;
    const dx = coords[2 * last]! - ax;
    const dy = coords[2 * last + 1]! - ay;
    const length = dx * dx + dy * dy;
    let farthest = -1;
    let farthestDistance = sqTolerance;
    for (let i = first + 1; i < last; i++) {
      let px = coords[2 * i]! - ax;
      let py = coords[2 * i + 1]! - ay;
      if (length > 0) {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / length));
        px -= t * dx;
        py -= t * dy;
      }
      const distance = px * px + py * py;
      if (distance > farthestDistance) {
        farthest = i;
        farthestDistance = distance;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    if (farthest - first > 1) stack.push(first, farthest);
    if (last - farthest > 1) stack.push(farthest, last);
  }
  let kept = 0;
  for (let i = 0; i < count; i++) kept += keep[i]!;
  if (kept === count) return coords;
  const out = new Float64Array(kept * 2);
  let j = 0;
  for (let i = 0; i < count; i++) {
    if (!keep[i]) continue;
    out[j++] = coords[2 * i]!;
    out[j++] = coords[2 * i + 1]!;
  }
  return out;
}
