// The small pictures of the basemap chooser (the map page's settings): the same view of Europe
// and Africa's north on each basemap, drawn as the static images are (built-in basemaps from
// Natural Earth; a commercial one from its provider's tiles with the owner's key). A commercial
// basemap without a key is shown as Classic behind a white veil: the chooser says what it needs.
import { createCanvas } from '@napi-rs/canvas';
import { PALETTES } from '../basemapPalettes.js';
import type { Basemap } from '../basemaps.js';
import { sharp } from '../media/sharp.js';
import { drawBuiltinBasemap } from './builtinBasemap.js';
import { frameView, worldX, worldY } from './mercator.js';
import type { BackgroundPainter } from './renderMap.js';

/** Drawn at twice the size the page shows (128×80), for sharp screens. */
export const PREVIEW_SIZE = { width: 256, height: 160 } as const;

/** Lisbon to the Black Sea, Scandinavia to the Sahara's edge. */
const PREVIEW_BOUNDS: [number, number, number, number] = [worldX(-12), worldY(62), worldX(36), worldY(30)];

/**
 * The basemap's picture as PNG bytes. A commercial basemap needs `paintTiles` (its tiles with a
 * key); without it, the veiled picture stands in.
 */
export async function renderBasemapPreview(basemap: Basemap, paintTiles?: BackgroundPainter): Promise<Buffer> {
  const view = frameView(PREVIEW_BOUNDS, { ...PREVIEW_SIZE, padding: 0, maxZoom: 6 });
  const canvas = createCanvas(PREVIEW_SIZE.width, PREVIEW_SIZE.height);
  const ctx = canvas.getContext('2d');
  const drawing = basemap.drawing;
  if (drawing.type === 'builtin') {
    drawBuiltinBasemap(ctx, view, PALETTES[drawing.palette]);
  } else if (paintTiles) {
    ctx.fillStyle = PALETTES.classic.land;
    ctx.fillRect(0, 0, PREVIEW_SIZE.width, PREVIEW_SIZE.height);
    await paintTiles(ctx, view);
  } else {
    drawBuiltinBasemap(ctx, view, PALETTES.classic);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.7)';
    ctx.fillRect(0, 0, PREVIEW_SIZE.width, PREVIEW_SIZE.height);
  }
  // Opaque pixels: premultiplied and straight RGBA are the same bytes (as in renderMap.ts).
  return sharp(canvas.data(), { raw: { width: PREVIEW_SIZE.width, height: PREVIEW_SIZE.height, channels: 4 } })
    .removeAlpha()
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
}
