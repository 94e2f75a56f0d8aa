// The street map in a static image: OpenStreetMap vector tiles (the BASEMAP_TILES archive) drawn
// with the rules of the one style description the browser's MapLibre style is made from
// (lib/streetStyle/description.ts, evaluated by lib/streetStyle/evaluate.ts), over Natural
// Earth, as the browser draws them: fills and lines bottom to top, then dots and labels.
//
// The activity reads the tiles a view needs (streetTilesOf) from the archive and hands their
// inflated bytes to the render thread, which decodes them here. Each tile is drawn clipped to its
// own square, so what a tile repeats of its neighbours (its buffer) is drawn once; labels are
// taken only from a tile's own square for the same reason. Text follows MapLibre's where a canvas
// allows it simply: point labels wrapped at 8 ems, road and river names straight along the
// straightest stretch of their line long enough for them, upright.
import { loadImage, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { BESIDE_ICON_EMS, STREET_RULES, type DotRule, type LabelRule } from '../streetStyle/description.js';
import { makiName, makiSvg } from '../makiIcons.js';
import { labelText, shownAt, takes, valueAt } from '../streetStyle/evaluate.js';
import type { StreetPalette } from '../streetStyle/palettes.js';
import { drawHaloText, font } from './fonts.js';
import type { LabelSpace } from './labelSpace.js';
import type { View } from './mercator.js';

/** An archive tile's address; `column` is x unwrapped (a view across the antimeridian). */
export interface StreetTileAddress {
  z: number;
  x: number;
  y: number;
  column: number;
}

/** A tile's inflated Mapbox vector tile bytes, as the activity hands them to the render thread. */
export interface StreetTileBytes extends StreetTileAddress {
  bytes: Uint8Array;
}

/** Tiles a view may need at most (a 1200-px image needs 12 at most: tiles are 512 px or more). */
const MAX_TILES = 64;
/** Text wraps at this many ems (MapLibre's text-max-width of the style). */
const MAX_WIDTH_EMS = 8;
/** The same name along a line is not repeated closer than this (MapLibre's symbol-spacing of the style). */
const LINE_LABEL_SPACING = 300;
/** A stretch of line bends at most this much (radians) to carry a name. */
const MAX_BEND = 0.35;

/** MapLibre's zoom of a view: the renderer counts 256-pixel tiles, MapLibre 512. */
export const styleZoom = (view: View): number => view.zoom - 1;

/**
 * The archive tiles a view is drawn from: at the whole part of its style zoom, as MapLibre picks
 * them, the archive's deepest over-zoomed past it; none below the archive's lowest zoom (Natural
 * Earth alone then).
 */
export function streetTilesOf(view: View, archive: { minZoom: number; maxZoom: number }): StreetTileAddress[] {
  const zoom = Math.floor(styleZoom(view));
  if (zoom < archive.minZoom) return [];
  const z = Math.min(zoom, archive.maxZoom);
  const n = 2 ** z;
  const x0 = Math.floor(view.left * n);
  const x1 = Math.floor((view.left + view.width / view.worldSize) * n);
  const y0 = Math.max(0, Math.floor(view.top * n));
  const y1 = Math.min(n - 1, Math.floor((view.top + view.height / view.worldSize) * n));
  if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_TILES) return [];
  const tiles: StreetTileAddress[] = [];
  for (let column = x0; column <= x1; column++) {
    for (let y = y0; y <= y1; y++) tiles.push({ z, x: ((column % n) + n) % n, y, column });
  }
  return tiles;
}

interface Feature {
  type: 0 | 1 | 2 | 3;
  properties: Record<string, string | number | boolean>;
  /** In pixels of the image; read on first use. */
  geometry(): { x: number; y: number }[][];
}

/** A decoded tile: where its square lies on the image, and its layers' features (each read once, whatever the number of rules). */
class DrawnTile {
  private readonly layers = new Map<string, Feature[]>();
  readonly square: { x: number; y: number; size: number };

  constructor(
    private readonly tile: VectorTile,
    address: StreetTileAddress,
    view: View,
  ) {
    const n = 2 ** address.z;
    this.square = { x: (address.column / n - view.left) * view.worldSize, y: (address.y / n - view.top) * view.worldSize, size: view.worldSize / n };
  }

  /** Whether a point of the image lies in this tile's own square (not in its buffer). */
  owns(x: number, y: number): boolean {
    const { square } = this;
    return x >= square.x && x < square.x + square.size && y >= square.y && y < square.y + square.size;
  }

  features(name: string): Feature[] {
    let found = this.layers.get(name);
    if (found) return found;
    const layer: VectorTileLayer | undefined = this.tile.layers[name];
    found = [];
    if (layer) {
      const k = this.square.size / layer.extent;
      const { x: left, y: top } = this.square;
      for (let i = 0; i < layer.length; i++) {
        const feature = layer.feature(i);
        let pixels: { x: number; y: number }[][] | undefined;
        found.push({
          type: feature.type,
          properties: feature.properties,
          geometry: () => (pixels ??= feature.loadGeometry().map((ring) => ring.map((point) => ({ x: left + point.x * k, y: top + point.y * k })))),
        });
      }
    }
    this.layers.set(name, found);
    return found;
  }
}

/** Decodes the tiles handed to the render thread for one view. */
export function decodeStreetTiles(tiles: readonly StreetTileBytes[], view: View): DrawnTile[] {
  return tiles.map((tile) => new DrawnTile(new VectorTile(new PbfReader(tile.bytes)), tile, view));
}

export type DecodedStreetTiles = DrawnTile[];

function trace(ctx: SKRSContext2D, rings: { x: number; y: number }[][], close: boolean): void {
  for (const ring of rings) {
    if (ring.length < 2) continue;
    ctx.moveTo(ring[0]!.x, ring[0]!.y);
    for (let i = 1; i < ring.length; i++) ctx.lineTo(ring[i]!.x, ring[i]!.y);
    if (close) ctx.closePath();
  }
}

/** Land use, land cover, water, buildings, roads, railways and boundaries, bottom to top. */
export function drawStreetShapes(ctx: SKRSContext2D, view: View, tiles: DecodedStreetTiles, palette: StreetPalette, scale: number): void {
  const zoom = styleZoom(view);
  for (const rule of STREET_RULES) {
    if ((rule.kind !== 'fill' && rule.kind !== 'line') || !shownAt(rule, zoom)) continue;
    for (const tile of tiles) {
      const features = tile.features(rule.layer).filter((feature) => (rule.kind === 'fill' ? feature.type === 3 : feature.type === 2 || feature.type === 3) && takes(rule, feature.properties));
      if (features.length === 0) continue;
      ctx.save();
      ctx.beginPath();
      ctx.rect(tile.square.x, tile.square.y, tile.square.size, tile.square.size);
      ctx.clip();
      ctx.beginPath();
      for (const feature of features) trace(ctx, feature.geometry(), feature.type === 3);
      ctx.globalAlpha = rule.opacity ?? 1;
      if (rule.kind === 'fill') {
        ctx.fillStyle = palette[rule.colour];
        ctx.fill('nonzero');
        if (rule.outline) {
          ctx.strokeStyle = palette[rule.outline];
          ctx.lineWidth = 1;
          ctx.stroke();
        }
      } else {
        const width = valueAt(rule.width, zoom) * scale;
        ctx.strokeStyle = palette[rule.colour];
        ctx.lineWidth = width;
        ctx.lineJoin = 'round';
        ctx.lineCap = rule.dash ? 'butt' : 'round';
        ctx.setLineDash(rule.dash ? rule.dash.map((part) => part * width) : []);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.restore();
    }
  }
}

/** Words on lines of at most maxWidth pixels (a word longer than that on a line of its own). */
function wrapped(ctx: SKRSContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(candidate).width > maxWidth) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

const rankOf = (properties: Feature['properties']): number => (typeof properties.rank === 'number' ? properties.rank : 99);

/** The size a POI's Maki icon is drawn at (the browser's: 30-px images at pixel ratio 2). */
const ICON_PX = 15;

/** Points of interest: each class's Maki icon in the rule's colour, or a dot for a rule without icons. */
async function drawDots(ctx: SKRSContext2D, rule: DotRule, tiles: DecodedStreetTiles, palette: StreetPalette, scale: number): Promise<void> {
  const size = Math.round(ICON_PX * scale);
  // Each icon decoded once per image, however many points show it.
  const images = new Map<string, Promise<Image>>();
  const imageOf = (icon: string) => {
    let image = images.get(icon);
    if (!image) images.set(icon, (image = loadImage(makiSvg(icon, size, palette[rule.colour]))));
    return image;
  };
  ctx.beginPath();
  for (const tile of tiles) {
    for (const feature of tile.features(rule.layer)) {
      if (feature.type !== 1 || !takes(rule, feature.properties)) continue;
      for (const [point] of feature.geometry()) {
        if (!point || !tile.owns(point.x, point.y)) continue;
        const icon = rule.icons?.[String(feature.properties.class)];
        if (icon && makiName(icon)) {
          ctx.drawImage(await imageOf(icon), point.x - size / 2, point.y - size / 2, size, size);
          continue;
        }
        ctx.moveTo(point.x + rule.radius * scale, point.y);
        ctx.arc(point.x, point.y, rule.radius * scale, 0, 2 * Math.PI);
      }
    }
  }
  ctx.fillStyle = palette[rule.colour];
  ctx.fill();
  ctx.strokeStyle = palette.labelHalo;
  ctx.lineWidth = scale;
  ctx.stroke();
}

function placePointLabels(ctx: SKRSContext2D, rule: LabelRule, zoom: number, tiles: DecodedStreetTiles, palette: StreetPalette, space: LabelSpace, scale: number): void {
  const candidates: { text: string; x: number; y: number; rank: number }[] = [];
  for (const tile of tiles) {
    for (const feature of tile.features(rule.layer)) {
      if (feature.type !== 1 || !takes(rule, feature.properties)) continue;
      const text = labelText(rule, feature.properties);
      const point = feature.geometry()[0]?.[0];
      if (text && point && tile.owns(point.x, point.y)) candidates.push({ text, x: point.x, y: point.y, rank: rankOf(feature.properties) });
    }
  }
  if (rule.byRank) candidates.sort((a, b) => a.rank - b.rank);
  const size = valueAt(rule.size, zoom) * scale;
  ctx.font = font(size);
  ctx.textBaseline = 'middle';
  ctx.textAlign = rule.offset ? 'left' : 'center';
  const lineHeight = size * 1.2;
  for (const { text, x, y } of candidates) {
    const lines = wrapped(ctx, text, MAX_WIDTH_EMS * size);
    const width = Math.max(...lines.map((line) => ctx.measureText(line).width));
    const height = lines.length * lineHeight;
    // Beside the icon: to its right; else centred on the point.
    const left = rule.offset ? x + BESIDE_ICON_EMS * size : x - width / 2;
    if (!space.take({ x: left - 2, y: y - height / 2 - 1, width: width + 4, height: height + 2 })) continue;
    lines.forEach((line, i) => drawHaloText(ctx, line, rule.offset ? left : x, y - height / 2 + lineHeight * (i + 0.5), palette[rule.colour], palette.labelHalo, 3 * scale));
  }
}

/** The straightest stretch of a line at least `length` pixels long, nearest its middle: where a name goes. */
function stretchFor(line: { x: number; y: number }[], length: number): { x: number; y: number; angle: number } | undefined {
  let best: { x: number; y: number; angle: number; distance: number } | undefined;
  const middle = line.length / 2;
  for (let i = 0; i < line.length - 1; i++) {
    const first = Math.atan2(line[i + 1]!.y - line[i]!.y, line[i + 1]!.x - line[i]!.x);
    let run = 0;
    for (let j = i + 1; j < line.length; j++) {
      const dx = line[j]!.x - line[j - 1]!.x;
      const dy = line[j]!.y - line[j - 1]!.y;
      let bend = Math.abs(Math.atan2(dy, dx) - first);
      if (bend > Math.PI) bend = 2 * Math.PI - bend;
      if (bend > MAX_BEND) break;
      run += Math.hypot(dx, dy);
      if (run < length) continue;
      const distance = Math.abs((i + j) / 2 - middle);
      if (!best || distance < best.distance) {
        let angle = Math.atan2(line[j]!.y - line[i]!.y, line[j]!.x - line[i]!.x);
        // Upright: never upside down.
        if (angle > Math.PI / 2) angle -= Math.PI;
        else if (angle < -Math.PI / 2) angle += Math.PI;
        best = { x: (line[i]!.x + line[j]!.x) / 2, y: (line[i]!.y + line[j]!.y) / 2, angle, distance };
      }
      break;
    }
  }
  return best;
}

function placeLineLabels(ctx: SKRSContext2D, rule: LabelRule, zoom: number, tiles: DecodedStreetTiles, palette: StreetPalette, space: LabelSpace, scale: number): void {
  const size = valueAt(rule.size, zoom) * scale;
  ctx.font = font(size);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  const placed = new Map<string, { x: number; y: number }[]>();
  for (const tile of tiles) {
    for (const feature of tile.features(rule.layer)) {
      if (feature.type !== 2 || !takes(rule, feature.properties)) continue;
      const text = labelText(rule, feature.properties);
      if (!text) continue;
      const width = ctx.measureText(text).width;
      for (const line of feature.geometry()) {
        const at = stretchFor(line, width + size);
        if (!at || !tile.owns(at.x, at.y)) continue;
        const others = placed.get(text) ?? [];
        if (others.some((other) => Math.hypot(other.x - at.x, other.y - at.y) < LINE_LABEL_SPACING * scale)) continue;
        // The box around the turned text, as upright boxes are what the label space keeps.
        const cos = Math.abs(Math.cos(at.angle));
        const sin = Math.abs(Math.sin(at.angle));
        const boxWidth = width * cos + size * sin;
        const boxHeight = width * sin + size * cos;
        if (!space.take({ x: at.x - boxWidth / 2, y: at.y - boxHeight / 2, width: boxWidth, height: boxHeight })) continue;
        others.push(at);
        placed.set(text, others);
        ctx.save();
        ctx.translate(at.x, at.y);
        ctx.rotate(at.angle);
        drawHaloText(ctx, text, 0, 0, palette[rule.colour], palette.labelHalo, 3 * scale);
        ctx.restore();
      }
    }
  }
}

/**
 * Points of interest's icons, then the labels where they fit in `space` (after the map's own
 * titles): the description's topmost label rules first, as MapLibre places its topmost symbol
 * layers first (place names before road names).
 */
export async function drawStreetLabels(ctx: SKRSContext2D, view: View, tiles: DecodedStreetTiles, palette: StreetPalette, space: LabelSpace, scale: number): Promise<void> {
  const zoom = styleZoom(view);
  const shown = STREET_RULES.filter((rule) => shownAt(rule, zoom));
  for (const rule of shown) if (rule.kind === 'dot') await drawDots(ctx, rule, tiles, palette, scale);
  for (const rule of [...shown].reverse()) {
    if (rule.kind !== 'label') continue;
    if (rule.placement === 'line') placeLineLabels(ctx, rule, zoom, tiles, palette, space, scale);
    else placePointLabels(ctx, rule, zoom, tiles, palette, space, scale);
  }
}
