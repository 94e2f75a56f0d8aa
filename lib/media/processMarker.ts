// A point icon: an uploaded PNG, or an icon found in a KMZ (PNG, JPEG or GIF; the first frame
// of an animated GIF). Stored as PNGs that keep transparency: s64 for normal screens, s128
// for 2x screens, never enlarged, aspect kept.
import { decodeUpload } from './decode.js';
import { encodeDerivatives, type Derivative } from './derivatives.js';
import { mediaError } from './errors.js';
import type { MediaFormat } from './sniff.js';

export const MARKER_BOXES = [128, 64] as const;

/** 25 megapixels: generous for an icon, and far below what could exhaust a worker's memory. */
export const MARKER_MAX_PIXELS = 25_000_000;

export interface ProcessedMarker {
  /** Of the upright original. */
  width: number;
  height: number;
  /** Largest first, all PNG. */
  derivatives: Derivative[];
}

/** A marker's longer side may be at most this many times its shorter one (a 10000×10 strip is no icon). */
export const MARKER_MAX_ASPECT = 4;

export interface MarkerOptions {
  /** The marker/upload API accepts PNG only; icons inside a KMZ may also be JPEG or GIF (the default). */
  accepted?: readonly MediaFormat[];
  /** The type the client named (marker/upload's file_type); an upload is also refused when animated. */
  declared?: MediaFormat;
}

export async function processMarker(bytes: Uint8Array, options: MarkerOptions = {}): Promise<ProcessedMarker> {
  const decoded = await decodeUpload(bytes, {
    accepted: options.accepted ?? ['png', 'jpeg', 'gif'],
    declared: options.declared,
    stillOnly: options.declared !== undefined,
    maxPixels: MARKER_MAX_PIXELS,
    box: Math.max(...MARKER_BOXES),
  });
  const { width, height } = decoded;
  if (Math.max(width, height) > MARKER_MAX_ASPECT * Math.min(width, height)) {
    throw mediaError(
      'invalid_image',
      `The icon is ${width}×${height} pixels; a marker's longer side may be at most ${MARKER_MAX_ASPECT} times its shorter one.`,
    );
  }
  const derivatives = await encodeDerivatives(
    decoded.pixels,
    { width: decoded.width, height: decoded.height },
    MARKER_BOXES,
    'image/png',
  );
  return { width: decoded.width, height: decoded.height, derivatives };
}
