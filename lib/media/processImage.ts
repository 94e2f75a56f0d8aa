// An uploaded photo (JPEG or PNG, by magic bytes): its size, colours, EXIF place and date, and
// the resized copies to store. Nothing of the original is kept but re-encoded pixels.
import type { ImageFields } from './records.js';
import { averageColor, tipColor } from './colors.js';
import { decodeUpload } from './decode.js';
import { encodeDerivatives, type Derivative } from './derivatives.js';
import { readExifFacts } from './exif.js';

/** Boxes of the image derivatives (s2048 … s256). */
export const IMAGE_BOXES = [2048, 1024, 512, 256] as const;

/** 100 megapixels: a 108 MP phone photo is refused, a 12000×8000 scan is not. */
export const IMAGE_MAX_PIXELS = 100_000_000;

export interface ProcessedImage extends ImageFields {
  /** Largest first; JPEG, or PNG for an image with transparency; no metadata. */
  derivatives: Derivative[];
}

export interface ImageOptions {
  /** The type the client named (image/upload's file_type); an upload is also refused when animated. */
  declared?: 'jpeg' | 'png';
}

export async function processImage(bytes: Uint8Array, options: ImageOptions = {}): Promise<ProcessedImage> {
  const decoded = await decodeUpload(bytes, {
    accepted: ['jpeg', 'png'],
    declared: options.declared,
    stillOnly: options.declared !== undefined,
    maxPixels: IMAGE_MAX_PIXELS,
    box: Math.max(...IMAGE_BOXES),
  });
  // The encodes run on libvips' threads; the colours are worked out here meanwhile.
  const encoding = encodeDerivatives(
    decoded.pixels,
    { width: decoded.width, height: decoded.height },
    IMAGE_BOXES,
    // Photos as JPEG; a PNG stays PNG only when it has transparency (a JPEG would turn it black).
    decoded.transparent ? 'image/png' : 'image/jpeg',
  );
  encoding.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
  const facts = readExifFacts(decoded.exif);
  const colors = { tipColor: tipColor(decoded.pixels), avgColor: averageColor(decoded.pixels) };
  return {
    width: decoded.width,
    height: decoded.height,
    ...colors,
    hasGps: facts.geometry !== null,
    geometry: facts.geometry,
    dateStr: facts.dateStr,
    dateIso: facts.dateIso,
    derivatives: await encoding,
  };
}
