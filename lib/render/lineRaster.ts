// Lines drawn one pixel wide into a plain RGBA buffer, for an image whose lines would cover it
// many times over (thousands of long lines: the bench's 7,500 lines across the world). Skia's
// anti-aliased strokes cost the scan conversion of every line over every row it spans (10 s for
// those lines at 1200×630); a line clipped to the image and stepped pixel by pixel costs its
// length in pixels, and on a picture that crowded the difference of anti-aliasing is not seen.
import { createCanvas, ImageData, type SKRSContext2D } from '@napi-rs/canvas';

export class LineRaster {
  private readonly pixels: Uint32Array;
  private readonly bytes: Uint8ClampedArray;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.bytes = new Uint8ClampedArray(width * height * 4);
    this.pixels = new Uint32Array(this.bytes.buffer);
  }

  /** A colour `#rrggbb` as the buffer's pixel value (RGBA bytes, little-endian words, opaque). */
  static pixelOf(color: string): number {
    const value = Number.parseInt(color.slice(1, 7), 16);
    const r = (value >> 16) & 255;
    const g = (value >> 8) & 255;
    const b = value & 255;
    return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
  }

  /** A segment in image pixels, clipped to the image (Liang–Barsky), stepped along its longer axis. */
  segment(x0: number, y0: number, x1: number, y1: number, pixel: number): void {
    const maxX = this.width - 1;
    const maxY = this.height - 1;
    const dx = x1 - x0;
    const dy = y1 - y0;
    let t0 = 0;
    let t1 = 1;
    const clip = (p: number, q: number): boolean => {
      if (p === 0) return q >= 0;
      const r = q / p;
      if (p < 0) {
        if (r > t1) return false;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return false;
        if (r < t1) t1 = r;
      }
      return true;
    };
    if (!clip(-dx, x0) || !clip(dx, maxX - x0) || !clip(-dy, y0) || !clip(dy, maxY - y0)) return;
    const ax = x0 + t0 * dx;
    const ay = y0 + t0 * dy;
    const bx = x0 + t1 * dx;
    const by = y0 + t1 * dy;
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay))));
    const sx = (bx - ax) / steps;
    const sy = (by - ay) / steps;
    const pixels = this.pixels;
    const width = this.width;
    let x = ax + 0.5;
    let y = ay + 0.5;
    for (let i = 0; i <= steps; i++) {
      pixels[(y | 0) * width + (x | 0)] = pixel;
      x += sx;
      y += sy;
    }
  }

  /** Draws what was rasterised over the context (untouched pixels stay transparent). */
  drawOnto(ctx: SKRSContext2D): void {
    const layer = createCanvas(this.width, this.height);
    layer.getContext('2d').putImageData(new ImageData(this.bytes, this.width, this.height), 0, 0);
    ctx.drawImage(layer, 0, 0);
  }
}
