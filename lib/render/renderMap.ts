// A map's static images: the 1200×630 picture (embeds, the image download) and the 400×300
// thumbnail (map lists), each framed to the visible features with padding (the world when there
// are none), drawn with @napi-rs/canvas and encoded as PNG by sharp.
import { createCanvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import { PALETTES } from '../basemapPalettes.js';
import { NATURAL_EARTH_LABELS_UNTIL, OSM_CREDIT } from '../streetStyle/description.js';
import { STREET_PALETTES } from '../streetStyle/palettes.js';
import type { Basemap } from '../basemaps.js';
import { sharp } from '../media/sharp.js';
import { drawBuiltinBasemap, drawBuiltinLabels } from './builtinBasemap.js';
import { crowdedPoints, drawFeatureLabels, drawFeatures, placeFeatureLabels, pointsOnImage } from './drawFeatures.js';
import { font, registerFonts } from './fonts.js';
import { LabelSpace } from './labelSpace.js';
import { drawOverlays } from './overlays.js';
import { frameView, type View, type WorldBounds } from './mercator.js';
import type { Scene } from './scene.js';
import { decodeStreetTiles, drawStreetLabels, drawStreetShapes, styleZoom, type StreetTileBytes } from './streetMap.js';
import { drawTextLabels, placeTextLabels } from './textLabels.js';

export interface ImageSize {
  width: number;
  height: number;
  /** Symbols, lines and text are drawn this much larger or smaller. */
  scale: number;
  /** Whether titles and place names are drawn (not in a thumbnail: too small to read). */
  labels: boolean;
}

export const STATIC_IMAGE: ImageSize = { width: 1200, height: 630, scale: 1, labels: true };
export const THUMBNAIL: ImageSize = { width: 400, height: 300, scale: 0.7, labels: false };

/** The closest a framing zooms: a single point shows its neighbourhood, not one building. */
const MAX_ZOOM = 15;
const PADDING = 48;

/** Draws a view's commercial basemap (raster tiles), when the map is on one. */
export type BackgroundPainter = (ctx: SKRSContext2D, view: View) => Promise<void>;

export interface RenderRequest {
  scene: Scene;
  basemap: Basemap;
  /** The images of the custom markers the features use, by marker id. */
  markers: ReadonlyMap<string, Image>;
  /** The images of the scene's overlays, by image id (an overlay whose image is missing is not drawn). */
  overlays?: ReadonlyMap<string, Image>;
  /** Required for a basemap drawn from XYZ tiles. */
  paintTiles?: BackgroundPainter;
  /** A built-in basemap's street map tiles for this image's view (streetTilesOf), when there is a street archive. */
  streets?: readonly StreetTileBytes[];
}

function drawAttribution(ctx: SKRSContext2D, text: string, size: ImageSize, color: string, box: string): void {
  const fontSize = Math.max(9, 11 * size.scale);
  ctx.font = font(fontSize);
  const width = ctx.measureText(text).width;
  const pad = 4 * size.scale;
  const height = fontSize + 2 * pad;
  ctx.fillStyle = box;
  ctx.fillRect(size.width - width - 2 * pad, size.height - height, width + 2 * pad, height);
  ctx.fillStyle = color;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, size.width - pad, size.height - height / 2);
}

/** How an image of that size frames content of these bounds (the world when null). */
export const viewOf = (bounds: WorldBounds | null, size: ImageSize): View =>
  frameView(bounds, { width: size.width, height: size.height, padding: PADDING * size.scale, maxZoom: MAX_ZOOM });

/** One image of the map, as PNG bytes. */
export async function renderMapImage(request: RenderRequest, size: ImageSize): Promise<Buffer> {
  registerFonts();
  const view = viewOf(request.scene.bounds, size);
  const canvas = createCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d');
  const drawing = request.basemap.drawing;
  const palette = PALETTES[drawing.type === 'builtin' ? drawing.palette : 'classic'];
  const streets = drawing.type === 'builtin' && request.streets?.length ? decodeStreetTiles(request.streets, view) : undefined;
  if (drawing.type === 'builtin') {
    drawBuiltinBasemap(ctx, view, palette);
    if (streets) drawStreetShapes(ctx, view, streets, STREET_PALETTES[drawing.palette], size.scale);
  } else {
    if (!request.paintTiles) throw new Error(`The basemap ${request.basemap.id} needs its tiles`);
    ctx.fillStyle = palette.land;
    ctx.fillRect(0, 0, size.width, size.height);
    await request.paintTiles(ctx, view);
  }
  // Overlays lie on the basemap, under the items and every label.
  if (request.overlays) drawOverlays(ctx, request.scene.overlays, view, request.overlays);
  const space = new LabelSpace(size.width, size.height);
  // Text labels are items: drawn in the thumbnail too, and placed first, so titles keep clear of them.
  const texts = placeTextLabels(ctx, request.scene, view, space, size.scale);
  const points = pointsOnImage(request.scene, view, size.scale);
  // Points crowded into dots have no titles (the browser's dots have none either).
  const labels = size.labels ? placeFeatureLabels(ctx, request.scene, view, space, size.scale, !crowdedPoints(points)) : [];
  if (size.labels && drawing.type === 'builtin') {
    if (streets) await drawStreetLabels(ctx, view, streets, STREET_PALETTES[drawing.palette], space, size.scale);
    if (!streets || styleZoom(view) < NATURAL_EARTH_LABELS_UNTIL) drawBuiltinLabels(ctx, view, palette, space, size.scale);
  }
  await drawFeatures(ctx, request.scene, { view, scale: size.scale, markers: request.markers, points });
  drawFeatureLabels(ctx, labels, size.scale);
  drawTextLabels(ctx, texts, size.scale);
  const attribution = streets ? `${OSM_CREDIT} · ${request.basemap.attribution}` : request.basemap.attribution;
  drawAttribution(ctx, attribution, size, palette.attribution, palette.attributionBox);
  // The canvas's own pixels, without getImageData's copy and un-premultiplying: every image is
  // opaque (the basemap covers it), so premultiplied and straight RGBA are the same bytes.
  return sharp(canvas.data(), { raw: { width: size.width, height: size.height, channels: 4 } })
    .removeAlpha()
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** The static image and the thumbnail. */
export async function renderMapImages(request: RenderRequest): Promise<{ static: Buffer; thumbnail: Buffer }> {
  return { static: await renderMapImage(request, STATIC_IMAGE), thumbnail: await renderMapImage(request, THUMBNAIL) };
}
