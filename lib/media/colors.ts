// The two colours the map shows before an image loads: the average of the whole image, and
// the colour at the bottom centre (where the popup's tip points). Computed on decoded 8-bit
// sRGB pixels; transparent pixels count as seen over white, the popup's background.

export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA). */
  channels: number;
}

const hex = (value: number): string => Math.round(value).toString(16).padStart(2, '0');

/** Mean colour of the pixels in [x0, x1) × [y0, y1), as #rrggbb. */
function meanColor(pixels: RawPixels, x0: number, x1: number, y0: number, y1: number): string {
  const { data, width, channels } = pixels;
  let r = 0;
  let g = 0;
  let b = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const i = (y * width + x) * channels;
      const alpha = channels === 4 ? (data[i + 3] ?? 255) / 255 : 1;
      const white = 255 * (1 - alpha);
      r += (data[i] ?? 0) * alpha + white;
      g += (data[i + 1] ?? 0) * alpha + white;
      b += (data[i + 2] ?? 0) * alpha + white;
    }
  }
  const count = Math.max(1, (x1 - x0) * (y1 - y0));
  return `#${hex(r / count)}${hex(g / count)}${hex(b / count)}`;
}

export function averageColor(pixels: RawPixels): string {
  return meanColor(pixels, 0, pixels.width, 0, pixels.height);
}

/** Mean of the bottom-centre patch: the middle tenth of the width, the lowest twentieth of the height. */
export function tipColor(pixels: RawPixels): string {
  const { width, height } = pixels;
  const patchWidth = Math.max(1, Math.round(width / 10));
  const patchHeight = Math.max(1, Math.round(height / 20));
  const x0 = Math.floor((width - patchWidth) / 2);
  return meanColor(pixels, x0, x0 + patchWidth, height - patchHeight, height);
}
