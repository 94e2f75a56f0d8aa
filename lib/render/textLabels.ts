// Text labels in the static image (lib/textLabels.ts): each label's text centred on its point,
// in its colour and size, with a halo that keeps it legible on the basemap, wrapped at 12 ems as
// the browser map wraps it (MapLibre's text-max-width). Labels are the map's content, not
// decoration: every one is drawn, even where they overlap; their boxes are taken in the label
// space first, so item titles and place names keep out of their way.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { textHaloColor } from '../textLabels.js';
import { drawHaloText, font } from './fonts.js';
import type { LabelSpace } from './labelSpace.js';
import type { View } from './mercator.js';
import type { Scene } from './scene.js';

/** Wrap width and line height in ems, as the browser's symbol layer (web/app/textLabelLayer.ts). */
export const TEXT_MAX_WIDTH_EMS = 12;
export const TEXT_LINE_HEIGHT_EMS = 1.2;

export interface PlacedText {
  lines: string[];
  x: number;
  /** The middle of the first line. */
  y: number;
  color: string;
  /** Font size in pixels, scaled. */
  size: number;
}

/** The text broken into lines no wider than `maxWidth` (a word longer than that stays whole). */
export function wrapText(ctx: SKRSContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(candidate).width > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Where the scene's labels go in the view; their boxes are taken from `space`. */
export function placeTextLabels(ctx: SKRSContext2D, scene: Scene, view: View, space: LabelSpace, scale: number): PlacedText[] {
  const placed: PlacedText[] = [];
  for (const label of scene.texts) {
    const size = label.size * scale;
    const x = (label.x - view.left) * view.worldSize;
    const y = (label.y - view.top) * view.worldSize;
    // Far off the image: nothing of it can show.
    if (x < -view.width || y < -view.height || x > 2 * view.width || y > 2 * view.height) continue;
    ctx.font = font(size);
    const lines = wrapText(ctx, label.text, TEXT_MAX_WIDTH_EMS * size);
    const lineHeight = TEXT_LINE_HEIGHT_EMS * size;
    const width = Math.max(...lines.map((line) => ctx.measureText(line).width));
    const height = lines.length * lineHeight;
    const top = y - height / 2;
    space.take({ x: x - width / 2 - 2 * scale, y: top, width: width + 4 * scale, height });
    placed.push({ lines, x, y: top + lineHeight / 2, color: label.color, size });
  }
  return placed;
}

export function drawTextLabels(ctx: SKRSContext2D, labels: readonly PlacedText[], scale: number): void {
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const label of labels) {
    ctx.font = font(label.size);
    const halo = textHaloColor(label.color);
    const haloWidth = Math.max(3 * scale, label.size / 5);
    label.lines.forEach((line, i) => drawHaloText(ctx, line, label.x, label.y + i * TEXT_LINE_HEIGHT_EMS * label.size, label.color, halo, haloWidth));
  }
}
