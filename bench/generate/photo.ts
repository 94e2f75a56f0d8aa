// A photo-like picture for the image benchmark: a sky gradient over hills with textured ground
// (value noise of several octaves), objects with hard edges, and per-pixel sensor noise, so that
// it compresses like a photo (a 12-megapixel JPEG at quality 90 of about 4 MB, a PNG of about
// 11 MB) instead of to nothing. Deterministic: every run times the same files.
import sharp from 'sharp';
import { pseudoRandom } from './pseudoRandom.js';

/** Value noise: a grid of random values every `cell` pixels, smoothly interpolated. */
function valueNoise(width: number, height: number, cell: number, random: () => number) {
  const cols = Math.ceil(width / cell) + 2;
  const rows = Math.ceil(height / cell) + 2;
  const grid = new Float32Array(cols * rows);
  for (let i = 0; i < grid.length; i += 1) grid[i] = random() * 2 - 1;
  return { grid, cols, cell };
}

type Noise = ReturnType<typeof valueNoise>;

const smooth = (t: number) => t * t * (3 - 2 * t);

function sample(noise: Noise, x: number, y: number): number {
  const gx = x / noise.cell;
  const gy = y / noise.cell;
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const tx = smooth(gx - x0);
  const ty = smooth(gy - y0);
  const { grid, cols } = noise;
  const i = y0 * cols + x0;
  const top = grid[i]! + (grid[i + 1]! - grid[i]!) * tx;
  const bottom = grid[i + cols]! + (grid[i + cols + 1]! - grid[i + cols]!) * tx;
  return top + (bottom - top) * ty;
}

const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value));

export interface PhotoLook {
  /** Amplitude (±) of the per-pixel sensor noise. */
  grain: number;
  /** Weight of the finest texture (4-pixel cells): grass, gravel. */
  fine: number;
}

/** RGB pixels (3 channels, 8 bits) of the picture. */
export function photoPixels(width: number, height: number, look: PhotoLook, seed = 7): Buffer {
  const { grain, fine } = look;
  const random = pseudoRandom(seed);
  const octaves = [
    { noise: valueNoise(width, height, 400, random), weight: 0.5 },
    { noise: valueNoise(width, height, 90, random), weight: 0.25 },
    { noise: valueNoise(width, height, 17, random), weight: 0.15 },
    { noise: valueNoise(width, height, 4, random), weight: fine },
  ];
  // Houses: rectangles with hard edges, in front of the hills.
  const boxes = Array.from({ length: 40 }, () => {
    const w = 60 + random() * 300;
    const h = 60 + random() * 250;
    const x = random() * (width - w);
    const y = height * 0.45 + random() * (height * 0.5 - h);
    return { x, y, w, h, r: 90 + random() * 160, g: 60 + random() * 120, b: 50 + random() * 110 };
  });
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let texture = 0;
      for (const o of octaves) texture += sample(o.noise, x, y) * o.weight;
      const horizon = height * (0.42 + 0.06 * Math.sin(x / 530) + 0.03 * Math.sin(x / 97 + 1.3) + 0.04 * sample(octaves[0]!.noise, x, 0));
      let r: number;
      let g: number;
      let b: number;
      if (y < horizon) {
        // Sky: a vertical gradient with soft clouds (the coarse octaves only).
        const t = y / horizon;
        const cloud = Math.max(0, sample(octaves[0]!.noise, x, y) + 0.5 * sample(octaves[1]!.noise, x, y)) * 90;
        r = 70 + 110 * t + cloud;
        g = 120 + 90 * t + cloud;
        b = 200 + 40 * t + cloud * 0.6;
      } else {
        // Ground: green to brown with distance, strongly textured.
        const t = (y - horizon) / (height - horizon);
        r = 60 + 70 * t + texture * 70;
        g = 95 + 30 * t + texture * 80;
        b = 40 + 20 * t + texture * 40;
      }
      for (const box of boxes) {
        if (x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h) {
          const shade = (x - box.x) / box.w < 0.3 ? 0.75 : 1;
          r = box.r * shade + texture * 25;
          g = box.g * shade + texture * 25;
          b = box.b * shade + texture * 25;
        }
      }
      const i = (y * width + x) * 3;
      data[i] = clamp(r + (random() * 2 - 1) * grain);
      data[i + 1] = clamp(g + (random() * 2 - 1) * grain);
      data[i + 2] = clamp(b + (random() * 2 - 1) * grain);
    }
  }
  return data;
}

const raw = (width: number, height: number) => ({ raw: { width, height, channels: 3 as const } });

/** A camera's JPEG: sensor noise and fine texture (12 MP: about 3.9 MB at quality 90). */
export const CAMERA_LOOK: PhotoLook = { grain: 18, fine: 0.3 };
/**
 * An edited photo exported as PNG: the same texture, no sensor noise (12 MP: about 11.4 MB,
 * below the 15 MB upload limit; with the camera's noise it would be 31 MB).
 */
export const EXPORT_LOOK: PhotoLook = { grain: 0, fine: 0.3 };

/** A baseline JPEG as a camera writes it: quality 90, 4:2:0, with EXIF (orientation 1, make and model). */
export async function photoJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(photoPixels(width, height, CAMERA_LOOK), raw(width, height))
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Synthetic 12MP' } })
    .withMetadata({ orientation: 1 })
    .toBuffer();
}

/** An opaque RGB PNG (no alpha channel), zlib level 6 as most editors write it. */
export async function photoPng(width: number, height: number): Promise<Buffer> {
  return sharp(photoPixels(width, height, EXPORT_LOOK), raw(width, height)).png({ compressionLevel: 6 }).toBuffer();
}
