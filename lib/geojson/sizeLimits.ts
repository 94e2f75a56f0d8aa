// How large a map and one of its items may be, as bytes of their GeoJSON text (UTF-8, written
// compactly as JSON.stringify writes it). Every write path holds a map to MAX_MAP_BYTES, and an
// import counts what it produces as it writes it, however the input expands (repeated rows,
// shared strings, long numbers), so nothing larger is ever built or stored.
import { AppError } from '../errors.js';

const MB = 1024 * 1024;

/** The largest map document. */
export const MAX_MAP_BYTES = 64 * MB;
/** The largest single feature. */
export const MAX_FEATURE_BYTES = 32 * MB;

const megabytes = (bytes: number): string => `${Math.ceil((bytes / MB) * 10) / 10} MB`;

export function mapTooLarge(bytes?: number): AppError {
  const size = bytes === undefined ? `more than ${MAX_MAP_BYTES / MB} MB` : megabytes(bytes);
  return new AppError(
    'map_too_large',
    `The map would hold ${size} of GeoJSON; a map may hold at most ${MAX_MAP_BYTES / MB} MB. Split the content over several maps.`,
  );
}

export function featureTooLarge(where: string): AppError {
  return new AppError('feature_too_large', `${where} would be larger than ${MAX_FEATURE_BYTES / MB} MB of GeoJSON; a map item may be at most that large.`);
}

/** Throws map_too_large when a document of `bytes` would be over the limit. */
export function checkMapBytes(bytes: number): void {
  if (bytes > MAX_MAP_BYTES) throw mapTooLarge(bytes);
}
