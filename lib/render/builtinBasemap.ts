// Draws a built-in basemap (classic, light, dark) from Natural Earth (lib/naturalEarth.ts): water,
// land, country borders, and the country and capital labels that fit. The layers are projected
// to world units once per process; each image then scales, culls what lies outside it and skips
// points closer than half a pixel, so a world view and a city view cost about the same.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Palette } from '../basemapPalettes.js';
import { naturalEarth, type LonLatLine, type PlaceLabel, type Resolution } from '../naturalEarth.js';
import { drawHaloText, font } from './fonts.js';
import type { LabelSpace } from './labelSpace.js';
import { worldX, worldY, type View } from './mercator.js';
import { tracePath } from './paths.js';

interface WorldLine {
  coords: Float64Array;
  /** [minX, minY, maxX, maxY] in world units. */
  bbox: [number, number, number, number];
}

interface WorldLabel {
  name: string;
  x: number;
  y: number;
  rank: number;
}

interface WorldLayers {
  land: WorldLine[][];
  landBoxes: [number, number, number, number][];
  borders: WorldLine[];
  countries: WorldLabel[];
  capitals: WorldLabel[];
}

const projected = new Map<Resolution, WorldLayers>();

/** A line in world units with its bounds (Natural Earth's lines are unwrapped already: x may pass 0 or 1). */
function project(line: LonLatLine): WorldLine {
  const coords = new Float64Array(line.length * 2);
  const bbox: WorldLine['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
  line.forEach(([lon, lat], i) => {
    const x = worldX(lon);
    const y = worldY(lat);
    coords[2 * i] = x;
    coords[2 * i + 1] = y;
    bbox[0] = Math.min(bbox[0], x);
    bbox[1] = Math.min(bbox[1], y);
    bbox[2] = Math.max(bbox[2], x);
    bbox[3] = Math.max(bbox[3], y);
  });
  return { coords, bbox };
}

const labelOf = (place: PlaceLabel): WorldLabel => ({ name: place.name, x: worldX(place.lon), y: worldY(place.lat), rank: place.rank });

function layers(resolution: Resolution): WorldLayers {
  let found = projected.get(resolution);
  if (!found) {
    const data = naturalEarth(resolution);
    const land = data.land.map((polygon) => polygon.rings.map(project));
    found = {
      land,
      landBoxes: land.map((rings) => rings[0]!.bbox),
      borders: data.borders.map((border) => project(border.line)),
      countries: data.countries.map(labelOf),
      capitals: data.capitals.map(labelOf),
    };
    projected.set(resolution, found);
  }
  return found;
}

/** 1:50m up to zoom 3.5, 1:10m closer (finer coasts and borders). */
export const resolutionFor = (zoom: number): Resolution => (zoom < 3.5 ? '50m' : '10m');

/**
 * The horizontal world copies a view may show: the ones it overlaps and one more on each side,
 * for the unwrapped shapes that reach past the antimeridian (culling drops what is not needed).
 */
function copiesOf(view: View): number[] {
  const right = view.left + view.width / view.worldSize;
  const copies: number[] = [];
  for (let k = Math.floor(view.left) - 1; k <= Math.floor(right) + 1; k++) copies.push(k);
  return copies;
}

function intersects(view: View, bbox: [number, number, number, number], shift: number, marginPx: number): boolean {
  const margin = marginPx / view.worldSize;
  const right = view.left + view.width / view.worldSize;
  const bottom = view.top + view.height / view.worldSize;
  return bbox[2] + shift >= view.left - margin && bbox[0] + shift <= right + margin && bbox[3] >= view.top - margin && bbox[1] <= bottom + margin;
}

/** Water, land and borders. */
export function drawBuiltinBasemap(ctx: SKRSContext2D, view: View, palette: Palette): void {
  const world = layers(resolutionFor(view.zoom));
  ctx.fillStyle = palette.water;
  ctx.fillRect(0, 0, view.width, view.height);
  const copies = copiesOf(view);
  ctx.beginPath();
  for (const shift of copies) {
    world.land.forEach((rings, i) => {
      if (!intersects(view, world.landBoxes[i]!, shift, 2)) return;
      for (const ring of rings) tracePath(ctx, view, ring.coords, shift, true);
    });
  }
  ctx.fillStyle = palette.land;
  ctx.fill('evenodd');
  ctx.strokeStyle = palette.coast;
  ctx.lineWidth = view.zoom < 3 ? 0.6 : 1;
  ctx.stroke();
  ctx.beginPath();
  for (const shift of copies) {
    for (const border of world.borders) {
      if (intersects(view, border.bbox, shift, 2)) tracePath(ctx, view, border.coords, shift, false);
    }
  }
  ctx.strokeStyle = palette.border;
  ctx.lineWidth = view.zoom < 3 ? 0.7 : 1.1;
  ctx.setLineDash(view.zoom < 3 ? [] : [4, 2]);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** The smallest country (square degrees of its largest part) labelled at a zoom. */
const minCountryRank = (zoom: number): number => (zoom < 2.5 ? 40 : zoom < 3.5 ? 6 : zoom < 4.5 ? 1.5 : zoom < 5.5 ? 0.3 : 0);

/** Country names (largest first), then from zoom 3.5 capitals, where they fit in `space`. */
export function drawBuiltinLabels(ctx: SKRSContext2D, view: View, palette: Palette, space: LabelSpace, scale: number): void {
  const world = layers(resolutionFor(view.zoom));
  const copies = copiesOf(view);
  ctx.textBaseline = 'middle';
  const minRank = minCountryRank(view.zoom);
  ctx.font = font((view.zoom < 3 ? 11 : 13) * scale, true);
  ctx.textAlign = 'center';
  for (const country of world.countries) {
    if (country.rank < minRank) break;
    for (const shift of copies) {
      const x = (country.x + shift - view.left) * view.worldSize;
      const y = (country.y - view.top) * view.worldSize;
      if (x < 0 || y < 0 || x > view.width || y > view.height) continue; // off the image: no text to measure
      const width = ctx.measureText(country.name).width;
      const height = 16 * scale;
      if (!space.take({ x: x - width / 2 - 2, y: y - height / 2, width: width + 4, height })) continue;
      drawHaloText(ctx, country.name, x, y, palette.countryLabel, palette.labelHalo);
    }
  }
  if (view.zoom >= 3.5) {
    ctx.font = font(11 * scale);
    ctx.textAlign = 'left';
    for (const capital of world.capitals) {
      for (const shift of copies) {
        const x = (capital.x + shift - view.left) * view.worldSize;
        const y = (capital.y - view.top) * view.worldSize;
        if (x < 0 || y < 0 || x > view.width || y > view.height) continue;
        const width = ctx.measureText(capital.name).width;
        const height = 14 * scale;
        if (!space.take({ x: x - 4 * scale, y: y - height / 2, width: width + 10 * scale, height })) continue;
        ctx.beginPath();
        ctx.arc(x, y, 2.5 * scale, 0, 2 * Math.PI);
        ctx.fillStyle = palette.capitalDot;
        ctx.fill();
        drawHaloText(ctx, capital.name, x + 5 * scale, y, palette.capitalLabel, palette.labelHalo);
      }
    }
  }
}
