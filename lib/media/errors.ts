// Failures of media processing as AppErrors with stable codes, and the translation of sharp's
// (libvips') error messages into them, so no library message or path reaches a client.
import { AppError } from '../errors.js';

/** Codes media processing answers with. */
export type MediaErrorCode = 'unsupported_file_type' | 'image_too_large' | 'invalid_image' | 'processing_timeout';

export function mediaError(code: MediaErrorCode, message: string): AppError {
  return new AppError(code, message);
}

/** An error thrown by sharp while reading or converting an image, as the AppError to report. */
export function fromSharpError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return mediaError('image_too_large', 'The image has more pixels than the service processes.');
  }
  if (/channel limit/i.test(message)) {
    return mediaError('invalid_image', 'The image has more colour channels than the service processes.');
  }
  if (/timeout/i.test(message)) {
    return mediaError('processing_timeout', 'Processing the image took longer than the time limit.');
  }
  if (/unsupported image format/i.test(message)) {
    return mediaError('unsupported_file_type', 'The file is not an image format this operation accepts.');
  }
  return mediaError('invalid_image', 'The image is damaged or incomplete and cannot be read.');
}

/**
 * A map names media it may not use: an id no image or marker has, or media uploaded by someone
 * who is neither the map's owner nor one of its editors (the two are told apart by no one but
 * the uploader, so they get the same answer).
 */
export function mediaNotLinkable(kind: 'image' | 'marker', id: string): AppError {
  const what = kind === 'image' ? `image "${id}"` : `marker "${id}"`;
  return new AppError(
    'invalid_geojson',
    `The GeoJSON uses the ${what}, which is not an ${kind} uploaded by the map's owner or one of its editors (upload it with ${kind}/upload and use the id it answers).`,
  );
}
