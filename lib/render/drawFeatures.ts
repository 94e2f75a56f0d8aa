// Draws a scene's features over the basemap: polygons (a translucent fill and an outline in
// their colour), lines (their colour and width), then points as pins with their icon or as their
// custom marker, southern ones in front; and the titles that fit, beside pins, at a line's middle
// and inside a polygon.
import { createCanvas, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import { drawHaloText, font } from './fonts.js';
import type { Box, LabelSpace } from './labelSpace.js';
import type { View } from './mercator.js';
import { LineRaster } from './lineRaster.js';
import { tracePath } from './paths.js';
import { PIN_HEIGHT, PIN_WIDTH, pinFor, type Pin } from './pins.js';
import type { Scene, ScenePath, ScenePoint } from './scene.js';
import { simplifyPart } from './simplify.js';

/** Custom markers (`marker_id`) are drawn with their longer side this long, at scale 1. */
const MARKER_SIZE = 32;
const POLYGON_FILL_ALPHA = 0.25;
/** Titles tried per image: beyond this many, the picture is too crowded for more to fit anyway. */
const MAX_LABEL_TRIES = 3000;
const LABEL_COLOR = '#222222';
const LABEL_HALO = '#ffffff';
/** Lines and outlines are simplified to this many pixels of the image. */
const SIMPLIFY_PIXELS = 0.5;
/** Lines whose strokes would cover the image more than this many times over are drawn one pixel wide. */
const CROWDED_LINE_COVERAGE = 4;
/** More points than this on an image are drawn as dots, without titles (the browser's map: 2,000 to a tile). */
export const CROWDED_POINTS = 2000;
const DOT_RADIUS = 3;

export interface FeatureDrawing {
  view: View;
  scale: number;
  markers: ReadonlyMap<string, Image>;
  /** The points on the image (pointsOnImage), when the caller has them already. */
  points?: readonly ScenePoint[];
}

const px = (view: View, x: number) => (x - view.left) * view.worldSize;
const py = (view: View, y: number) => (y - view.top) * view.worldSize;

function onImage(view: View, x: number, y: number, margin: number): boolean {
  return x >= -margin && y >= -margin && x <= view.width + margin && y <= view.height + margin;
}

/** A path as one image draws it: culled when off the image, its parts simplified to half a pixel. */
interface PathOnImage {
  path: ScenePath;
  parts: Float64Array[];
}

/**
 * The paths that reach the image, simplified to its pixel scale, and how many pixels their
 * strokes would cover (length × width): what drawing them costs.
 */
function pathsOnImage(view: View, paths: readonly ScenePath[], scale: number): { paths: PathOnImage[]; coverage: number } {
  const onImage: PathOnImage[] = [];
  const tolerance = SIMPLIFY_PIXELS / view.worldSize;
  let coverage = 0;
  for (const path of paths) {
    const margin = path.width * scale + 1;
    const [minX, minY, maxX, maxY] = path.box;
    if (px(view, maxX) < -margin || py(view, maxY) < -margin || px(view, minX) > view.width + margin || py(view, minY) > view.height + margin) continue;
    const parts = path.parts.map((part) => simplifyPart(part, tolerance));
    let length = 0;
    for (const part of parts) {
      for (let i = 2; i < part.length; i += 2) length += Math.hypot(part[i]! - part[i - 2]!, part[i + 1]! - part[i - 1]!);
    }
    coverage += length * view.worldSize * path.width * scale;
    onImage.push({ path, parts });
  }
  return { paths: onImage, coverage };
}

function drawPaths(ctx: SKRSContext2D, view: View, paths: readonly PathOnImage[], polygons: boolean, scale: number): void {
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const { path, parts } of paths) {
    ctx.beginPath();
    for (const part of parts) tracePath(ctx, view, part, 0, polygons);
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

/** Lines too many to stroke one by one: each one pixel wide in its colour, later ones on top (lineRaster.ts). */
function drawCrowdedLines(ctx: SKRSContext2D, view: View, paths: readonly PathOnImage[]): void {
  const raster = new LineRaster(view.width, view.height);
  for (const { path, parts } of paths) {
    const pixel = LineRaster.pixelOf(path.color);
    for (const part of parts) {
      for (let i = 2; i < part.length; i += 2) {
        raster.segment(px(view, part[i - 2]!), py(view, part[i - 1]!), px(view, part[i]!), py(view, part[i + 1]!), pixel);
      }
    }
  }
  raster.drawOnto(ctx);
}

/** The scene's points that show on the image (with the margin of a pin), southern ones last. */
export function pointsOnImage(scene: Scene, view: View, scale: number): ScenePoint[] {
  const margin = PIN_HEIGHT * scale;
  const visible = scene.points.filter((point) => onImage(view, px(view, point.x), py(view, point.y), margin));
  return visible.sort((a, b) => a.y - b.y);
}

/** Whether an image shows so many points that they are drawn as dots, without titles. */
export const crowdedPoints = (points: readonly ScenePoint[]): boolean => points.length > CROWDED_POINTS;

const dots = new Map<string, Canvas>();

/** A dot in a colour (a crowded image's point), made once per colour and scale. */
function dotFor(color: string, scale: number): Canvas {
  const key = `${color}|${scale}`;
  let dot = dots.get(key);
  if (!dot) {
    const radius = DOT_RADIUS * scale;
    const size = Math.ceil(2 * radius + 2);
    dot = createCanvas(size, size);
    const ctx = dot.getContext('2d');
    ctx.beginPath();
    ctx.arc(size / 2, size / 2, radius, 0, 2 * Math.PI);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.lineWidth = Math.max(0.75, scale);
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    if (dots.size >= 1000) dots.clear();
    dots.set(key, dot);
  }
  return dot;
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

/**
 * Polygons, lines and points, in that order. What the image draws costs what it shows: paths off
 * the image are skipped and the rest simplified to half a pixel; lines that would cover the
 * image several times over are drawn one pixel wide (drawCrowdedLines); more than
 * CROWDED_POINTS points on the image are drawn as dots (the browser's map does the same).
 */
export async function drawFeatures(ctx: SKRSContext2D, scene: Scene, drawing: FeatureDrawing): Promise<void> {
  const { view, scale } = drawing;
  drawPaths(ctx, view, pathsOnImage(view, scene.polygons, scale).paths, true, scale);
  const lines = pathsOnImage(view, scene.lines, scale);
  if (lines.coverage > CROWDED_LINE_COVERAGE * view.width * view.height) drawCrowdedLines(ctx, view, lines.paths);
  else drawPaths(ctx, view, lines.paths, false, scale);
  const visible = drawing.points ?? pointsOnImage(scene, view, scale);
  if (crowdedPoints(visible)) {
    for (const point of visible) {
      const dot = dotFor(point.color, scale);
      ctx.drawImage(dot, Math.round(px(view, point.x) - dot.width / 2), Math.round(py(view, point.y) - dot.height / 2));
    }
    return;
  }
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
export function placeFeatureLabels(ctx: SKRSContext2D, scene: Scene, view: View, space: LabelSpace, scale: number, pointTitles = true): PlacedLabel[] {
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
  for (const point of pointTitles ? scene.points : []) {
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
