// The pins points are drawn with: a teardrop in the feature's colour with a white outline and,
// inside, its built-in icon (`marker-symbol`: a Maki icon, @mapbox/maki, CC0; a single letter or
// digit as simplestyle allows; else a dot). Each pin is rasterised once per icon, colour and
// scale and kept, so a map of 100,000 pins draws 100,000 copies of a few bitmaps.
import { createCanvas, loadImage, type Canvas, type Image } from '@napi-rs/canvas';
import { makiName, whiteMakiSvg } from '../makiIcons.js';
import { font } from './fonts.js';

/** A pin's size at scale 1; its tip is the point's position. */
export const PIN_WIDTH = 26;
export const PIN_HEIGHT = 34;
const ICON_SIZE = 14;
const MAX_CACHED = 4000;

export interface Pin {
  bitmap: Canvas;
  /** Where the point is inside the bitmap (the tip), in bitmap pixels. */
  anchorX: number;
  anchorY: number;
}

const pins = new Map<string, Promise<Pin>>();

function drawPinShape(ctx: ReturnType<Canvas['getContext']>, scale: number, color: string): void {
  const w = PIN_WIDTH * scale;
  const h = PIN_HEIGHT * scale;
  const r = w / 2 - 1.5 * scale;
  const cx = w / 2;
  const cy = r + 1.5 * scale;
  ctx.beginPath();
  // Two tangents from the tip to the circle make the teardrop.
  const tipY = h - 1 * scale;
  const angle = Math.asin(r / (tipY - cy));
  ctx.moveTo(cx, tipY);
  ctx.arc(cx, cy, r, Math.PI / 2 + angle, Math.PI / 2 - angle);
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
  ctx.lineWidth = 1.5 * scale;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
}

async function makePin(symbol: string | undefined, color: string, scale: number): Promise<Pin> {
  const width = Math.ceil(PIN_WIDTH * scale);
  const height = Math.ceil(PIN_HEIGHT * scale);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  drawPinShape(ctx, scale, color);
  const cx = (PIN_WIDTH * scale) / 2;
  const cy = (PIN_WIDTH * scale) / 2;
  const maki = makiName(symbol);
  if (maki) {
    const size = Math.round(ICON_SIZE * scale);
    const icon: Image = await loadImage(whiteMakiSvg(maki, size));
    ctx.drawImage(icon, Math.round(cx - size / 2), Math.round(cy - size / 2), size, size);
  } else if (symbol && /^[a-z0-9]$/i.test(symbol)) {
    ctx.fillStyle = '#ffffff';
    ctx.font = font(13 * scale, true);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(symbol.toUpperCase(), cx, cy + 0.5 * scale);
  } else {
    ctx.beginPath();
    ctx.arc(cx, cy, 3.5 * scale, 0, 2 * Math.PI);
    ctx.fillStyle = '#ffffff';
    ctx.fill();
  }
  return { bitmap: canvas, anchorX: cx, anchorY: PIN_HEIGHT * scale - 1 * scale };
}

/** The pin for an icon, colour and scale (made on first use, then shared). */
export function pinFor(symbol: string | undefined, color: string, scale: number): Promise<Pin> {
  const key = `${makiName(symbol) ?? (symbol && /^[a-z0-9]$/i.test(symbol) ? symbol.toUpperCase() : '')}|${color}|${scale}`;
  let pin = pins.get(key);
  if (!pin) {
    if (pins.size >= MAX_CACHED) pins.clear();
    pin = makePin(symbol, color, scale);
    pin.catch(() => pins.delete(key)); // a failure is not kept: the next image tries again
    pins.set(key, pin);
  }
  return pin;
}
