// Resized copies ("derivatives") of an uploaded image or marker. Each is named after the
// square box it fits in (s1024 fits in 1024×1024). A box is made when it is smaller than the
// original, plus the smallest box that holds the original whole: an 800×600 photo gets s1024
// (800×600, never enlarged), s512 and s256. All are encoded from one decoded copy of the
// original, so the original is decoded once and no metadata (EXIF, GPS) survives.
import type { RawPixels } from './colors.js';
import { fromSharpError } from './errors.js';
import { sharp } from './sharp.js';

export type DerivativeType = 'image/jpeg' | 'image/png';

export interface Derivative {
  name: string;
  width: number;
  height: number;
  bytes: Buffer;
  contentType: DerivativeType;
}

/** Seconds one libvips pipeline may run; the workflow's 2-minute limit is the real bound. */
export const PIPELINE_TIMEOUT_SECONDS = 60;

export const boxName = (box: number): string => `s${box}`;

/** The boxes (largest first) made for an original whose longer side is longSide pixels. */
export function boxesFor(longSide: number, boxes: readonly number[]): number[] {
  const descending = [...boxes].sort((a, b) => b - a);
  const smaller = descending.filter((box) => box < longSide);
  const holding = descending.filter((box) => box >= longSide).at(-1);
  return holding === undefined ? smaller : [holding, ...smaller];
}

/** The derivative to serve for a wanted box: the smallest one named for at least that box, else the largest. */
export function pickDerivative<D extends { name: string }>(derivatives: readonly D[], box: number): D | undefined {
  const sized = derivatives
    .map((d) => ({ d, box: Number(/^s(\d+)$/.exec(d.name)?.[1] ?? Number.NaN) }))
    .filter((entry) => Number.isFinite(entry.box))
    .sort((a, b) => a.box - b.box);
  return (sized.find((entry) => entry.box >= box) ?? sized.at(-1))?.d;
}

/** Size of the derivative for a box: the original scaled to fit, never enlarged, at least 1×1. */
export function fitInBox(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Encodes one derivative per box from `pixels` (the decoded original, already fitted into the
 * largest box). Sizes are computed from the original's width × height, so they do not depend
 * on the rounding of the decoded copy.
 */
export async function encodeDerivatives(
  pixels: RawPixels,
  original: { width: number; height: number },
  boxes: readonly number[],
  contentType: DerivativeType,
): Promise<Derivative[]> {
  // All at once: libvips spreads them over its threads (the four encodes of a 12-megapixel photo
  // took 158 ms one after the other, 111 ms at once); each is small next to the decoded copy.
  return Promise.all(
    boxesFor(Math.max(original.width, original.height), boxes).map(async (box): Promise<Derivative> => {
      const size = fitInBox(original.width, original.height, box);
      const pipeline = sharp(pixels.data, {
        raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 | 4 },
      })
        .resize(size.width, size.height, { fit: 'fill' })
        .timeout({ seconds: PIPELINE_TIMEOUT_SECONDS });
      const encoded =
        contentType === 'image/jpeg'
          ? pipeline.jpeg({ quality: 82 })
          : pipeline.png({ compressionLevel: 8, adaptiveFiltering: true });
      try {
        const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
        return { name: boxName(box), width: info.width, height: info.height, bytes: data, contentType };
      } catch (error) {
        throw fromSharpError(error);
      }
    }),
  );
}
