// Draws a scene's features over the basemap: polygons (a translucent fill and an outline in
// their colour), lines (their colour and width), then points as pins with their icon or as their
// custom marker, southern ones in front; and the titles that fit, beside pins, at a line's middle
// and inside a polygon.
import type { Image, SKRSContext2D } from '@napi-rs/canvas';
import { drawHaloText, font } from './fonts.js';
import type { Box, LabelSpace } from './labelSpace.js';
import type { View } from './mercator.js';
import { tracePath } from './paths.js';
import { PIN_HEIGHT, PIN_WIDTH, pinFor, type Pin } from './pins.js';
import type { Scene, ScenePath, ScenePoint } from './scene.js';

/** Custom markers (`marker_id`) are drawn with their longer side this long, at scale 1. */
const MARKER_SIZE = 32;
const POLYGON_FILL_ALPHA = 0.25;
/** Titles tried per image: beyond this many, the picture is too crowded for more to fit anyway. */
const MAX_LABEL_TRIES = 3000;
const LABEL_COLOR = '#222222';
const LABEL_HALO = '#ffffff';

export interface FeatureDrawing {
  view: View;
  scale: number;
  markers: ReadonlyMap<string, Image>;
}

const px = (view: View, x: number) => (x - view.left) * view.worldSize;
const py = (view: View, y: number) => (y - view.top) * view.worldSize;

function onImage(view: View, x: number, y: number, margin: number): boolean {
  return x >= -margin && y >= -margin && x <= view.width + margin && y <= view.height + margin;
}

function drawPaths(ctx: SKRSContext2D, view: View, paths: readonly ScenePath[], polygons: boolean, scale: number): void {
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const path of paths) {
    ctx.beginPath();
    for (const part of path.parts) tracePath(ctx, view, part, 0, polygons);
    if (polygons) {
      ctx.globalAlpha = POLYGON_FILL_ALPHA;
      ctx.fillStyle = path.color;
      ctx.fill('evenodd');
      ctx.globalAlpha = 1;
    }
    ctx.strokeStyle = path.color;
    ctx.lineWidth = path.width * scale;
    ctx.stroke();
  }
}

/** The pins the scene's points need, made (or found) before drawing starts: one per icon and colour. */
async function pinsOf(points: readonly ScenePoint[], drawing: FeatureDrawing): Promise<Map<ScenePoint, Pin>> {
  const keyOf = (point: ScenePoint) => `${point.symbol ?? ''}|${point.color}`;
  const byKey = new Map<string, Promise<Pin>>();
  for (const point of points) {
    if (point.markerId && drawing.markers.has(point.markerId)) continue;
    const key = keyOf(point);
    if (!byKey.has(key)) byKey.set(key, pinFor(point.symbol, point.color, drawing.scale));
  }
  const made = new Map<string, Pin>();
  await Promise.all([...byKey].map(async ([key, pin]) => made.set(key, await pin)));
  const found = new Map<ScenePoint, Pin>();
  for (const point of points) {
    const pin = made.get(keyOf(point));
    if (pin && !(point.markerId && drawing.markers.has(point.markerId))) found.set(point, pin);
  }
  return found;
}

function drawMarker(ctx: SKRSContext2D, marker: Image, x: number, y: number, scale: number): void {
  const longer = Math.max(marker.width, marker.height) || 1;
  const width = (marker.width / longer) * MARKER_SIZE * scale;
  const height = (marker.height / longer) * MARKER_SIZE * scale;
  ctx.drawImage(marker, x - width / 2, y - height, width, height);
}

/** Polygons, lines and points, in that order. */
export async function drawFeatures(ctx: SKRSContext2D, scene: Scene, drawing: FeatureDrawing): Promise<void> {
  const { view, scale } = drawing;
  drawPaths(ctx, view, scene.polygons, true, scale);
  drawPaths(ctx, view, scene.lines, false, scale);
  const margin = PIN_HEIGHT * scale;
  const visible = scene.points.filter((point) => onImage(view, px(view, point.x), py(view, point.y), margin));
  visible.sort((a, b) => a.y - b.y);
  const pins = await pinsOf(visible, drawing);
  for (const point of visible) {
    const x = px(view, point.x);
    const y = py(view, point.y);
    const pin = pins.get(point);
    if (pin) ctx.drawImage(pin.bitmap, Math.round(x - pin.anchorX), Math.round(y - pin.anchorY));
    else drawMarker(ctx, drawing.markers.get(point.markerId!)!, x, y, scale);
  }
}

export interface PlacedLabel {
  text: string;
  x: number;
  y: number;
  align: 'left' | 'center';
}

function middleOf(part: Float64Array): [number, number] {
  const i = Math.floor(part.length / 4) * 2;
  return [part[i]!, part[i + 1]!];
}

function centreOf(part: Float64Array): [number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < part.length; i += 2) {
    minX = Math.min(minX, part[i]!);
    maxX = Math.max(maxX, part[i]!);
    minY = Math.min(minY, part[i + 1]!);
    maxY = Math.max(maxY, part[i + 1]!);
  }
  return [(minX + maxX) / 2, (minY + maxY) / 2];
}

/**
 * Chooses where titles go, before anything is drawn, so the basemap's own labels keep out of
 * their way: pins' titles to the right of the pin, lines' at their middle point, polygons' at
 * their centre; a title that would overlap one already placed is left out.
 */
export function placeFeatureLabels(ctx: SKRSContext2D, scene: Scene, view: View, space: LabelSpace, scale: number): PlacedLabel[] {
  ctx.font = font(12 * scale, true);
  const placed: PlacedLabel[] = [];
  const height = 16 * scale;
  let tries = 0;
  // No glyph of the 12 px font is narrower than this: a box this small that does not fit spares
  // measuring the text (most titles of a crowded map).
  const narrowest = 2 * scale;
  const tryPlace = (text: string, x: number, y: number, align: PlacedLabel['align']): void => {
    tries++;
    const least = text.length * narrowest;
    if (!space.fits({ x: align === 'left' ? x : x - least / 2, y: y - height / 2, width: least, height })) return;
    const width = ctx.measureText(text).width + 4 * scale;
    const box: Box = { x: align === 'left' ? x : x - width / 2, y: y - height / 2, width, height };
    if (space.take(box)) placed.push({ text, x: align === 'left' ? x + 2 * scale : x, y, align });
  };
  for (const point of scene.points) {
    if (tries >= MAX_LABEL_TRIES) break;
    if (!point.title) continue;
    const x = px(view, point.x);
    const y = py(view, point.y);
    if (!onImage(view, x, y, 0)) continue;
    tryPlace(point.title, x + (PIN_WIDTH / 2 + 2) * scale, y - (PIN_HEIGHT - PIN_WIDTH / 2) * scale, 'left');
  }
  for (const [paths, anchor] of [
    [scene.lines, middleOf],
    [scene.polygons, centreOf],
  ] as const) {
    for (const path of paths) {
      if (tries >= MAX_LABEL_TRIES) break;
      if (!path.title) continue;
      const [wx, wy] = anchor(path.parts[0]!);
      tryPlace(path.title, px(view, wx), py(view, wy), 'center');
    }
  }
  return placed;
}

export function drawFeatureLabels(ctx: SKRSContext2D, labels: readonly PlacedLabel[], scale: number): void {
  ctx.font = font(12 * scale, true);
  ctx.textBaseline = 'middle';
  for (const label of labels) {
    ctx.textAlign = label.align;
    drawHaloText(ctx, label.text, label.x, label.y, LABEL_COLOR, LABEL_HALO, 3 * scale);
  }
}
