// Lines and rings in world units traced onto a canvas path, in pixels of a view.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { View } from './mercator.js';

/** Adds a line to the current path, in pixels, dropping points within half a pixel of the last. */
export function tracePath(ctx: SKRSContext2D, view: View, coords: Float64Array, shift: number, close: boolean): void {
  const scale = view.worldSize;
  const offsetX = (view.left - shift) * scale;
  const offsetY = view.top * scale;
  let lastX = coords[0]! * scale - offsetX;
  let lastY = coords[1]! * scale - offsetY;
  ctx.moveTo(lastX, lastY);
  for (let i = 2; i < coords.length; i += 2) {
    const x = coords[i]! * scale - offsetX;
    const y = coords[i + 1]! * scale - offsetY;
    if (Math.abs(x - lastX) + Math.abs(y - lastY) < 0.5 && i < coords.length - 2) continue;
    ctx.lineTo(x, y);
    lastX = x;
    lastY = y;
  }
  if (close) ctx.closePath();
}

